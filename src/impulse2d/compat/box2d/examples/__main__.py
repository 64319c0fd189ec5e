"""``python -m impulse2d.compat.box2d.examples [NAME] [--frames N] [--out x.png] [--headless]
[--list]``: run one of the pybox2d-style examples in the testbed window (a chooser when no
name is given), or headless for N frames with a screenshot."""

from __future__ import annotations

import argparse
import os
import sys

from . import load, names


def _choose() -> str | None:
    """A window listing the examples: click one or pick with the arrows and Enter."""
    import pygame

    from ..framework import SIZE, BACKGROUND
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.get_surface() or pygame.display.set_mode(SIZE)
    pygame.display.set_caption("impulse2d: pybox2d examples")
    font = pygame.font.Font(None, 24)
    small = pygame.font.Font(None, 18)
    listed = names()
    descriptions = {n: str(load(n).description or "") for n in listed}
    chosen = 0
    rows = []
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN
                                             and event.key == pygame.K_ESCAPE):
                return None
            if event.type == pygame.KEYDOWN:
                if event.key in (pygame.K_DOWN, pygame.K_UP):
                    chosen = (chosen + (1 if event.key == pygame.K_DOWN else -1)) % len(listed)
                elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    return listed[chosen]
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                for k, rect in rows:
                    if rect.collidepoint(event.pos):
                        return listed[k]
        screen.fill(BACKGROUND)
        screen.blit(font.render("pybox2d examples on impulse2d (Enter or click; Esc quits)",
                                True, (255, 255, 255)), (40, 20))
        rows = []
        step = min(26, (SIZE[1] - 70) // max(len(listed), 1))
        for k, name in enumerate(listed):
            y = 56 + step * k
            color = (255, 196, 64) if k == chosen else (214, 218, 226)
            img = font.render(name, True, color)
            screen.blit(img, (40, y))
            screen.blit(small.render(descriptions[name], True, (130, 135, 148)), (260, y + 3))
            rows.append((k, pygame.Rect(40, y, SIZE[0] - 80, step)))
        pygame.display.flip()
        pygame.time.wait(30)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m impulse2d.compat.box2d.examples",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("name", nargs="?", help="the example (a chooser when left out)")
    parser.add_argument("--frames", type=int, default=None, help="stop after this many frames")
    parser.add_argument("--out", default=None, help="save the last frame as this PNG")
    parser.add_argument("--headless", action="store_true",
                        help="no window (SDL's dummy video driver; needs --frames)")
    parser.add_argument("--list", action="store_true", help="list the examples and exit")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(names()))
        return 0
    if args.frames is not None and args.frames < 0:
        parser.error("--frames must be >= 0")
    if args.headless:
        if args.name is None or args.frames is None:
            parser.error("--headless needs an example name and --frames")
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from ..framework import main as run
    if args.name is not None:
        try:
            cls = load(args.name)
        except ValueError as exc:
            parser.error(str(exc))
        run(cls, frames=args.frames, window=not args.headless, out=args.out)
        return 0
    while True:  # the chooser: Esc in an example comes back here
        name = _choose()
        if name is None:
            return 0
        fw = run(load(name), frames=args.frames, window=True, out=args.out)
        if fw.quit_all:
            return 0


if __name__ == "__main__":
    sys.exit(main())
