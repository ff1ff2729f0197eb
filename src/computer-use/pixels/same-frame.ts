/**
 * Whether two screenshots show the same pixels, as far as can be told without decoding them:
 * equal PNG bytes, or equal frame hashes from the host (the protocol's pixel SHA-256, docs/screen-host.md),
 * so that a host whose encoder writes something of its own into every file is not taken to change
 * its screen with each screenshot. Unequal frame hashes, or none, say nothing more than the bytes.
 */
export interface FrameIdentity {
  pngSha256: string;
  frameSha256: string | null;
}

export function sameFrame(a: FrameIdentity, b: FrameIdentity): boolean {
  if (a.pngSha256 === b.pngSha256) return true;
  return a.frameSha256 !== null && a.frameSha256 === b.frameSha256;
}
