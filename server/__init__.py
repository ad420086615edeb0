"""textbook chat: grounded, cited answers from a Docusaurus textbook."""

__version__ = "0.1.0"
