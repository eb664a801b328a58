"""``make recipes``: ``python -m deployment_config.recipe`` rewrites recipes.lock.json (:mod:`.lock`)."""

import sys

from deployment_config.recipe.lock import main

sys.exit(main(sys.argv[1:]))
