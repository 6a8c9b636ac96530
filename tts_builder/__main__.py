"""``python -m tts_builder`` runs the CLI (a no-op build answered before it loads)."""

from .cli_noop import main

main()
