"""Why provisioning gave up."""


class ModelUnavailableError(RuntimeError):
    """No route produced a usable local copy of the embedding model."""


class ModelBuildError(ModelUnavailableError):
    """The offline build route ran but failed (installation, export or verification)."""
