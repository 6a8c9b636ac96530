"""``python -m tts_builder`` runs the CLI."""

from .cli import main

main()
