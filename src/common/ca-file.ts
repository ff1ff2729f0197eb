/**
 * A CA file a tenant admin names (`screen_tls.ca_file`, an audit sink's `ca_file`) is read only
 * under the deployment's CA_DIR (docs/screen-host.md): a tenant admin names a CA file, the deployment
 * operator decides which files there are.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

/** Whether `file` lies inside `dir` (both absolute, already resolved). */
function inside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Why the path may not be used as a CA file (by its name alone), or null. */
export function caFileProblem(
  caDir: string | undefined,
  file: string,
  field = 'screen_tls.ca_file',
): string | null {
  if (!caDir) {
    return `${field} needs the deployment to set CA_DIR (the directory CA files are read from); ${field === 'screen_tls.ca_file' ? 'use fingerprint_sha256, or ' : ''}ask the deployment operator`;
  }
  if (!isAbsolute(file) || !inside(resolve(caDir), resolve(file))) {
    return `${field} must be a file under the deployment's CA_DIR (${caDir})`;
  }
  return null;
}

/**
 * The CA file's bytes, read only when it is, after following every link, still under CA_DIR.
 * Throws an Error with the reason otherwise.
 */
export function readCaFile(
  caDir: string | undefined,
  file: string,
  field = 'screen_tls.ca_file',
): Buffer {
  const problem = caFileProblem(caDir, file, field);
  if (problem) throw new Error(problem);
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    throw new Error(
      `${field} ${JSON.stringify(file)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      { cause: error },
    );
  }
  if (!inside(realpathSync(caDir!), real)) {
    throw new Error(`${field} ${JSON.stringify(file)} leads outside CA_DIR`);
  }
  try {
    return readFileSync(real);
  } catch (error) {
    throw new Error(
      `${field} ${JSON.stringify(file)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      { cause: error },
    );
  }
}
