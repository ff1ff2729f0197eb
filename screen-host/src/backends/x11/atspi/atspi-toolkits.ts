/**
 * Which calls each toolkit is known to answer (pure). An application answers AT-SPI from its own
 * toolkit's bridge, and the bridges differ: Qt 5's handles every `org.freedesktop.DBus.Properties`
 * call by reading a second argument, and `GetAll` has one, so the application dies (a segmentation
 * fault in libQt5Core, with whatever the person had not saved). The host asks each application
 * once for its toolkit (`org.a11y.atspi.Application`'s ToolkitName and Version, with
 * `Properties.Get`, which every bridge answers: it is how libatspi asks) and reads it only with the
 * calls its row names. An application whose toolkit has no row is not read at all: its windows
 * are not served, and a click there is judged as one nothing could read (fail closed).
 */

/** How the host reads an application of one toolkit. */
export interface ToolkitCalls {
  /** The toolkit's row, for logs and docs (`Qt 5/6`). */
  toolkit: string;
  /**
   * Reading an element's properties: `all` in one `Properties.GetAll` (one call); `each`, one
   * `Properties.Get` per property (three calls: Name, Description, ChildCount).
   */
  properties: 'all' | 'each';
  /** Whether `Collection.GetMatches` may be asked, where the element says it has Collection. */
  collection: boolean;
  /**
   * Whether the toolkit marks a modal dialog `modal`. Qt marks none: a dialog of a Qt application
   * that shows is taken as modal (what takes the input), as nothing says otherwise.
   */
  statesModal: boolean;
}

interface ToolkitRow extends ToolkitCalls {
  /** ToolkitName as the bridge answers it, in lower case. */
  name: string;
  /** The versions tested (Version as the bridge answers it). */
  versions: RegExp;
}

/**
 * The toolkits the host reads, each tested against real applications under Xvfb
 * (docs/screen-host.md): GTK 3 (at-spi2-atk: GnuCash 4.13, LibreOffice 7.4's GTK 3 UI, both say
 * `gtk` 3.24) and Qt 5 and 6 (Qt's own bridge: FeatherPad on Qt 5.15, qt6ct on Qt 6.4).
 */
export const TOOLKITS: readonly ToolkitRow[] = [
  {
    name: 'gtk',
    versions: /^3\./,
    toolkit: 'GTK 3',
    properties: 'all',
    collection: true,
    statesModal: true,
  },
  {
    name: 'qt',
    versions: /^[56]\./,
    toolkit: 'Qt 5/6',
    properties: 'each',
    collection: false,
    statesModal: false,
  },
];

/** The calls for an application whose bridge says `name` and `version`; null: not read. */
export function toolkitCalls(name: unknown, version: unknown): ToolkitCalls | null {
  if (typeof name !== 'string' || typeof version !== 'string') return null;
  const row = TOOLKITS.find(
    (t) => t.name === name.trim().toLowerCase() && t.versions.test(version.trim()),
  );
  if (!row) return null;
  const { toolkit, properties, collection, statesModal } = row;
  return { toolkit, properties, collection, statesModal };
}
