"""The `textbook-chat` command (commands.py); each feature's commands live in its own module here or in
its package. `main` is looked up when first asked for, so that a feature's commands can use
shared.py without loading the whole command line."""


def __getattr__(name: str):
    if name == "main":
        from server.cli.commands import main
        return main
    raise AttributeError(name)
