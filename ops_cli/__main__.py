from ops_cli.cli import run

run()
