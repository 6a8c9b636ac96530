"""The bundled games and the fonts, shipped as the package data ``tts_builder.assets``."""
