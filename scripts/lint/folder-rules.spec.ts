import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// The folder rules of `npm run lint:modules`, run as that script runs them (dependency-cruiser with
// the project's .dependency-cruiser.cjs, then folder-ties.mjs on its JSON) on small trees of files.
const repo = join(__dirname, '..', '..');
const depcruise = join(repo, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Checked {
  /** dependency-cruiser's violations: rule name, from, to. */
  violations: Array<{ rule: string; from: string; to: string }>;
  /** folder-ties.mjs: its exit status and what it said. */
  ties: { status: number | null; output: string };
}

function check(files: Record<string, string>): Checked {
  const root = mkdtempSync(join(tmpdir(), 'folder-rules-'));
  try {
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } }),
    );
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const cruised = spawnSync(
      process.execPath,
      [
        depcruise,
        'src',
        '--config',
        join(repo, '.dependency-cruiser.cjs'),
        '--output-type',
        'json',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    if (!cruised.stdout) throw new Error(`dependency-cruiser said nothing: ${cruised.stderr}`);
    const result = JSON.parse(cruised.stdout) as {
      summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
    };
    const ties = spawnSync(process.execPath, [join(repo, 'scripts', 'lint', 'folder-ties.mjs')], {
      input: cruised.stdout,
      encoding: 'utf8',
    });
    return {
      violations: result.summary.violations.map((v) => ({
        rule: v.rule.name,
        from: v.from,
        to: v.to,
      })),
      ties: { status: ties.status, output: `${ties.stdout}${ties.stderr}` },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** computer-use uses notifications: the one way between them. */
const ONE_WAY = {
  'src/notifications/notify.ts': 'export const notify = 1;\n',
  'src/computer-use/runs/run.ts':
    "import { notify } from '../../notifications/notify';\nexport const run = notify;\n",
};

describe('the folder rules of lint:modules', () => {
  it('let one way between folders pass', () => {
    const checked = check(ONE_WAY);
    expect(checked.violations).toEqual([]);
    expect(checked.ties.status).toBe(0);
  });

  it('fail a platform folder that imports computer-use, and the folder cycle it makes', () => {
    const checked = check({
      ...ONE_WAY,
      'src/notifications/channels.ts':
        "import { run } from '../computer-use/runs/run';\nexport const channels = run;\n",
    });
    expect(checked.violations).toEqual(
      expect.arrayContaining([
        {
          rule: 'platform-never-imports-computer-use',
          from: 'src/notifications/channels.ts',
          to: 'src/computer-use/runs/run.ts',
        },
        expect.objectContaining({ rule: 'no-folder-cycle', from: 'src/notifications' }),
      ]),
    );
    expect(checked.ties.status).toBe(1);
    expect(checked.ties.output).toMatch(
      /folder-cycle: src\/computer-use, src\/notifications import each other/,
    );
  });

  it('fail a cycle of whole folders that only their subfolders make', () => {
    // secrets/grants → destinations/origins and destinations/decisions → secrets/variables: no
    // directory depends on itself, so dependency-cruiser's folder scope passes it; the two
    // folders, each with its subfolders, still import each other.
    const checked = check({
      'src/destinations/origins/origin.ts': 'export const origin = 1;\n',
      'src/secrets/variables/own.ts': 'export const own = 1;\n',
      'src/secrets/grants/grant.ts':
        "import { origin } from '../../destinations/origins/origin';\nexport const grant = origin;\n",
      'src/destinations/decisions/decide.ts':
        "import { own } from '../../secrets/variables/own';\nexport const decide = own;\n",
    });
    expect(checked.violations).toEqual([]);
    expect(checked.ties.status).toBe(1);
    expect(checked.ties.output).toMatch(
      /folder-cycle: src\/destinations, src\/secrets import each other, in a cycle:\n.*src\/destinations\/decisions\/decide\.ts → src\/secrets\/variables\/own\.ts/,
    );
  });
});
