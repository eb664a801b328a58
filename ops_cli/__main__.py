from ops_cli.main import run

run()
