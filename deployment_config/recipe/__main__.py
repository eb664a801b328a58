"""``make recipes``: ``python -m deployment_config.recipe`` rewrites recipes.lock.json."""

import sys

from deployment_config.recipe import main

sys.exit(main(sys.argv[1:]))
