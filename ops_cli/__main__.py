import sys

from ops_cli.main import main

sys.exit(main())
