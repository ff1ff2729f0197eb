import { type FileHandle, open } from 'node:fs/promises';
import type { VerifyResult } from '../audit/audit-chain';
import { verifyExport } from '../audit/verify-export';

/** `audit verify --file`: checks an export with the walk the API uses (src/audit/audit-chain.ts). */
export async function verifyFile(path: string): Promise<number> {
  let file: FileHandle;
  try {
    file = await open(path);
  } catch (error) {
    console.error(`cannot read ${path}: ${(error as Error).message}`);
    return 2;
  }
  try {
    const result = await verifyExport(file.readLines());
    if (result.problem) console.error(result.problem);
    return report(result);
  } finally {
    await file.close();
  }
}

/** Prints a verify result as the API answers it (JSON); 0 when the chain verifies, 1 when not. */
export function report(result: VerifyResult): number {
  console.log(JSON.stringify(result));
  if (!result.ok && result.first_bad_id) {
    console.error(
      `the chain is broken at event ${result.first_bad_id} (after ${result.checked - 1} intact): changed, removed or out of place`,
    );
  }
  return result.ok ? 0 : 1;
}
