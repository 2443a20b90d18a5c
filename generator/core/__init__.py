"""The pure rules core: square and hex geometry, polyominoes and polyhexes, exact cover with
colours, search budgets and seeded randomness.

Nothing here does I/O or imports a renderer, the CLI or a template engine; a test imports this
package in a fresh interpreter and fails if it pulls any of them in.
"""
