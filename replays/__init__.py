"""Replays: stepping, seeking and per-player views over verified matches.

Built on :func:`adjudicator.core.kernel.verify.run` with ``record_steps=True``; never imports a game
package (games are reached through the registry only).
"""
