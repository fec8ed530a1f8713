"""Built-in games.  Importing this package registers every one of them."""

from . import colossus_order  # noqa: F401  (registers on import)
from . import logos  # noqa: F401  (registers on import)
from . import kolossus  # noqa: F401  (registers on import)
from . import colossi  # noqa: F401  (registers on import)
