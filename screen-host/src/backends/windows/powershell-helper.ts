/**
 * A long-lived PowerShell helper process spoken to in JSON lines (windows-protocol.ts): the
 * script's request loop, and starting and stopping the process. The windows backend runs two:
 * one for the screen and input, one for SAP GUI Scripting (so that a COM call that blocks never
 * holds up a screenshot or a click).
 */
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WindowsBridge } from './windows-protocol';

/**
 * A helper script: `prologue` (types, functions), then the loop that reads one JSON request per
 * line and answers one per line, `cases` being the body of its `switch` on the request's `op`
 * (each case sets `$extra` to the answer's further fields, `,"name":value`).
 */
export function helperScript(prologue: string, cases: string): string {
  return String.raw`
$ErrorActionPreference = 'Stop'
${prologue}
# UTF-8 both ways, whatever the console's code page: typed text must arrive as sent.
$utf8 = New-Object System.Text.UTF8Encoding $false
$reader = New-Object System.IO.StreamReader([Console]::OpenStandardInput(), $utf8)
$writer = New-Object System.IO.StreamWriter([Console]::OpenStandardOutput(), $utf8)
$writer.AutoFlush = $true
while ($true) {
  $line = $reader.ReadLine()
  if ($null -eq $line) { break }
  $id = 'null'
  try {
    $req = $line | ConvertFrom-Json
    $id = [string][int]$req.id
    $extra = ''
    switch ([string]$req.op) {
${cases}
      default { throw ('unknown op ' + [string]$req.op) }
    }
    $writer.WriteLine('{"id":' + $id + ',"ok":true' + $extra + '}')
  } catch {
    $message = ConvertTo-Json -Compress -InputObject ([string]$_.Exception.Message)
    $writer.WriteLine('{"id":' + $id + ',"ok":false,"error":' + $message + '}')
  }
}
`;
}

export interface PowerShellHelper {
  readonly bridge: WindowsBridge;
  /** Ends the process and removes its script. */
  close(): void;
}

/** Starts `powershell` on the script (written to a temporary folder, removed on close). */
export function spawnHelper(
  script: string,
  powershell: string,
  timeoutMs?: number,
): PowerShellHelper {
  const scriptDir = mkdtempSync(join(tmpdir(), 'warden-screen-host-'));
  const file = join(scriptDir, 'helper.ps1');
  // A BOM makes Windows PowerShell 5.1 read the script as UTF-8.
  writeFileSync(file, `\ufeff${script}`, 'utf8');
  const child: ChildProcessWithoutNullStreams = spawn(
    powershell,
    ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', file],
    { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true },
  );
  const bridge = new WindowsBridge(child.stdin, child.stdout, timeoutMs);
  child.on('error', (err) =>
    bridge.fail(new Error(`PowerShell could not be started: ${err.message}`)),
  );
  child.on('close', (code) => bridge.fail(new Error(`the PowerShell helper exited with ${code}`)));
  child.stderr.resume();
  return {
    bridge,
    close() {
      child.stdin.end();
      child.kill();
      rmSync(scriptDir, { recursive: true, force: true });
    },
  };
}
