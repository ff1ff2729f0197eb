"""
The reference for what the accessibility bus itself costs: the same reading as the x11 screen
host's outline through a plain AT-SPI client in C (Debian's python3-dbus, libdbus), one call at a
time, in one long-lived process. For each line read on stdin it reads the active window (else the
first showing one) of the applications on the bus (AT_SPI_BUS_ADDRESS): every showing element
below it, level by level, children only of an element that has at most 500 (the host's bound),
each one's name, description, role, states and rectangle, and a text field's text; and prints the
milliseconds it took and the elements read, as JSON. Only `Properties.Get`, one property at a
time: every toolkit the host reads answers it (Qt 5 dies on GetAll).

python3-pyatspi (libatspi) was tried first: its first GetChildAtIndex on GnuCash's root never
returned (6 s), so it is not the reference.
"""
import json
import os
import sys
import time

import dbus

ACCESSIBLE = "org.a11y.atspi.Accessible"
COMPONENT = "org.a11y.atspi.Component"
TEXT = "org.a11y.atspi.Text"
PROPERTIES = "org.freedesktop.DBus.Properties"
ROOT = "/org/a11y/atspi/accessible/root"
STATE_ACTIVE, STATE_SHOWING = 1, 25
MAX_CHILDREN = 500
MAX_DEPTH = 40


def has(states, bit):
    return (int(states[bit >> 5]) >> (bit & 31)) & 1 == 1


class Reader:
    def __init__(self, bus):
        self.bus = bus

    def call(self, app, path, iface, member, *args):
        return self.bus.get_object(app, path, introspect=False).get_dbus_method(
            member, iface
        )(*args)

    def get(self, app, path, iface, name):
        return self.call(app, path, PROPERTIES, "Get", iface, name)

    def window(self):
        apps = self.call("org.a11y.atspi.Registry", ROOT, ACCESSIBLE, "GetChildren")
        showing = []
        for app, _ in apps:
            for _, path in self.call(app, ROOT, ACCESSIBLE, "GetChildren"):
                states = self.call(app, path, ACCESSIBLE, "GetState")
                if has(states, STATE_SHOWING):
                    showing.append((app, path, has(states, STATE_ACTIVE)))
        active = [w for w in showing if w[2]]
        return (active or showing or [None])[0]

    def read(self):
        window = self.window()
        if window is None:
            return 0
        app, path, _ = window
        count = 0
        level = [path]
        for _ in range(MAX_DEPTH):
            below = []
            for parent in level:
                if int(self.get(app, parent, ACCESSIBLE, "ChildCount")) > MAX_CHILDREN:
                    continue
                for _, child in self.call(app, parent, ACCESSIBLE, "GetChildren"):
                    if not has(self.call(app, child, ACCESSIBLE, "GetState"), STATE_SHOWING):
                        continue
                    self.get(app, child, ACCESSIBLE, "Name")
                    self.get(app, child, ACCESSIBLE, "Description")
                    self.call(app, child, ACCESSIBLE, "GetRole")
                    interfaces = self.call(app, child, ACCESSIBLE, "GetInterfaces")
                    if COMPONENT in interfaces:
                        self.call(app, child, COMPONENT, "GetExtents", dbus.UInt32(0))
                    if TEXT in interfaces:
                        length = int(self.get(app, child, TEXT, "CharacterCount"))
                        if length > 0:
                            self.call(app, child, TEXT, "GetText", 0, min(length, 4096))
                    count += 1
                    below.append(child)
            level = below
            if not level:
                break
        return count


def main():
    bus = dbus.bus.BusConnection(os.environ["AT_SPI_BUS_ADDRESS"])
    reader = Reader(bus)
    for _ in sys.stdin:
        started = time.perf_counter()
        count = reader.read()
        ms = (time.perf_counter() - started) * 1000
        print(json.dumps({"ms": ms, "elements": count}), flush=True)


if __name__ == "__main__":
    main()
