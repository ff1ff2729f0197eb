"""
The reference for what the accessibility bus itself costs: the same reading as the x11 screen
host's outline, through a plain AT-SPI client (Debian's python3-pyatspi, libatspi in C), in one
long-lived process. For each line read on stdin it reads the active window of the applications
on the bus (AT_SPI_BUS_ADDRESS): every showing element below it, level by level, children only
of an element that has at most 500 (the host's bound; a larger table is left out here), each
one's name, description, role, states and rectangle, and a text field's text; and prints the
milliseconds it took and the elements read, as JSON. libatspi's cache is cleared before each
read, so every read asks the applications, as the host does.
"""
import json
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

MAX_CHILDREN = 500
MAX_DEPTH = 40


def showing(acc):
    return acc.get_state_set().contains(Atspi.StateType.SHOWING)


def window_of(desktop):
    windows = []
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None:
            continue
        app.clear_cache()
        for j in range(app.get_child_count()):
            w = app.get_child_at_index(j)
            if w is not None and showing(w):
                windows.append(w)
    active = [w for w in windows if w.get_state_set().contains(Atspi.StateType.ACTIVE)]
    modal = [w for w in windows if w.get_state_set().contains(Atspi.StateType.MODAL)]
    return (modal or active or windows or [None])[0]


def read(desktop):
    window = window_of(desktop)
    if window is None:
        return 0
    count = 0
    level = [window]
    for _ in range(MAX_DEPTH):
        if not level:
            break
        below = []
        for acc in level:
            n = acc.get_child_count()
            if n > MAX_CHILDREN:
                continue
            for i in range(n):
                child = acc.get_child_at_index(i)
                if child is None or not showing(child):
                    continue
                child.get_name()
                child.get_description()
                child.get_role()
                child.get_extents(Atspi.CoordType.SCREEN)
                text = child.get_text_iface()
                if text is not None:
                    Atspi.Text.get_text(text, 0, min(Atspi.Text.get_character_count(text), 4096))
                count += 1
                below.append(child)
        level = below
    return count


def main():
    desktop = Atspi.get_desktop(0)
    for _ in sys.stdin:
        started = time.perf_counter()
        count = read(desktop)
        ms = (time.perf_counter() - started) * 1000
        print(json.dumps({"ms": ms, "elements": count}), flush=True)


if __name__ == "__main__":
    main()
