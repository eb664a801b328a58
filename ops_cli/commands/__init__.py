"""One module per command group of ``llmops``. Each has ``register(subparsers, common)``, which adds the group's
parser(s) under the root's subparsers (``common``: the options every parser accepts, ops_cli/cli.py) and sets
``handler`` on every command's parser: a function of one :class:`ops_cli.context.Context` that returns the exit code.
ops_cli/cli.py dispatches to ``args.handler``; tests/ops_cli/test_cli_commands.py checks that every command has one."""
