/**
 * Windows: a long-lived PowerShell process does the work (System.Drawing for the screenshot,
 * SendInput for input), spoken to in JSON lines. Untested on Windows so far (see docs/screen-host.md).
 */
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckedAction } from '../../actions';
import type { OutlineElement, ScreenBackend, Screenshot, TypingTarget } from '../backend';
import { opForAction, WindowsBridge } from './windows-protocol';

export const HELPER_SCRIPT = String.raw`
$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName System.Drawing
Add-Type -TypeDefinition @'
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;
public static class WardenInput {
  [StructLayout(LayoutKind.Sequential)] public struct MOUSEINPUT { public int dx; public int dy; public int mouseData; public uint dwFlags; public uint time; public IntPtr dwExtraInfo; }
  [StructLayout(LayoutKind.Sequential)] public struct KEYBDINPUT { public ushort wVk; public ushort wScan; public uint dwFlags; public uint time; public IntPtr dwExtraInfo; }
  [StructLayout(LayoutKind.Explicit)] public struct INPUTUNION { [FieldOffset(0)] public MOUSEINPUT mi; [FieldOffset(0)] public KEYBDINPUT ki; }
  [StructLayout(LayoutKind.Sequential)] public struct INPUT { public uint type; public INPUTUNION u; }
  [DllImport("user32.dll", SetLastError = true)] static extern uint SendInput(uint n, INPUT[] inputs, int size);
  [DllImport("user32.dll")] static extern bool SetCursorPos(int x, int y);
  [DllImport("user32.dll")] public static extern bool SetProcessDPIAware();
  [DllImport("user32.dll")] public static extern int GetSystemMetrics(int index);
  static void Send(INPUT[] inputs) {
    uint sent = SendInput((uint)inputs.Length, inputs, Marshal.SizeOf(typeof(INPUT)));
    if (sent != inputs.Length) throw new Exception("SendInput delivered " + sent + " of " + inputs.Length + " events (error " + Marshal.GetLastWin32Error() + "); is the desktop locked or a higher-integrity window in front?");
  }
  static INPUT Mouse(uint flags, int data) { var i = new INPUT(); i.type = 0; i.u.mi.dwFlags = flags; i.u.mi.mouseData = data; return i; }
  static INPUT Key(ushort vk, ushort scan, uint flags) { var i = new INPUT(); i.type = 1; i.u.ki.wVk = vk; i.u.ki.wScan = scan; i.u.ki.dwFlags = flags; return i; }
  public static void Click(int x, int y, int count) {
    SetCursorPos(x, y);
    for (int c = 0; c < count; c++) {
      Send(new[] { Mouse(0x0002, 0), Mouse(0x0004, 0) });
      if (c + 1 < count) Thread.Sleep(40);
    }
  }
  public static void Scroll(int x, int y, int dx, int dy) {
    SetCursorPos(x, y);
    if (dy != 0) Send(new[] { Mouse(0x0800, dy) });
    if (dx != 0) Send(new[] { Mouse(0x1000, dx) });
  }
  public static void Keys(int[] vks, bool[] extended) {
    var list = new List<INPUT>();
    for (int i = 0; i < vks.Length; i++) list.Add(Key((ushort)vks[i], 0, extended[i] ? 1u : 0u));
    for (int i = vks.Length - 1; i >= 0; i--) list.Add(Key((ushort)vks[i], 0, (extended[i] ? 1u : 0u) | 2u));
    Send(list.ToArray());
  }
  public static void Type(string text) {
    foreach (char ch in text) {
      if (ch == '\n') { Keys(new[] { 0x0D }, new[] { false }); continue; }
      if (ch == '\t') { Keys(new[] { 0x09 }, new[] { false }); continue; }
      Send(new[] { Key(0, (ushort)ch, 0x0004), Key(0, (ushort)ch, 0x0004 | 0x0002) });
      Thread.Sleep(2);
    }
  }
}
'@
[WardenInput]::SetProcessDPIAware() | Out-Null
# UTF-8 both ways, whatever the console's code page: typed text must arrive as sent.
$utf8 = New-Object System.Text.UTF8Encoding $false
$reader = New-Object System.IO.StreamReader([Console]::OpenStandardInput(), $utf8)
$writer = New-Object System.IO.StreamWriter([Console]::OpenStandardOutput(), $utf8)
$writer.AutoFlush = $true
function Size {
  return ',"width":' + [WardenInput]::GetSystemMetrics(0) + ',"height":' + [WardenInput]::GetSystemMetrics(1)
}
function Shot {
  $w = [WardenInput]::GetSystemMetrics(0); $h = [WardenInput]::GetSystemMetrics(1)
  $bmp = New-Object System.Drawing.Bitmap $w, $h
  $g = [System.Drawing.Graphics]::FromImage($bmp)
  try {
    $g.CopyFromScreen(0, 0, 0, 0, $bmp.Size)
    $ms = New-Object System.IO.MemoryStream
    $bmp.Save($ms, [System.Drawing.Imaging.ImageFormat]::Png)
    # Built by hand: base64 needs no escaping, and ConvertTo-Json is slow on megabytes.
    return ',"width":' + $w + ',"height":' + $h + ',"png":"' + [Convert]::ToBase64String($ms.ToArray()) + '"'
  } finally { $g.Dispose(); $bmp.Dispose() }
}
while ($true) {
  $line = $reader.ReadLine()
  if ($null -eq $line) { break }
  $id = 'null'
  try {
    $req = $line | ConvertFrom-Json
    $id = [string][int]$req.id
    $extra = ''
    switch ([string]$req.op) {
      'size' { $extra = Size }
      'screenshot' { $extra = Shot }
      'click' { [WardenInput]::Click([int]$req.x, [int]$req.y, [int]$req.count) }
      'scroll' { [WardenInput]::Scroll([int]$req.x, [int]$req.y, [int]$req.dx, [int]$req.dy) }
      'key' { [WardenInput]::Keys([int[]]$req.vks, [bool[]]$req.extended) }
      'type' { [WardenInput]::Type([string]$req.text) }
      default { throw ('unknown op ' + [string]$req.op) }
    }
    $writer.WriteLine('{"id":' + $id + ',"ok":true' + $extra + '}')
  } catch {
    $message = ConvertTo-Json -Compress -InputObject ([string]$_.Exception.Message)
    $writer.WriteLine('{"id":' + $id + ',"ok":false,"error":' + $message + '}')
  }
}
`;

export class WindowsBackend implements ScreenBackend {
  readonly name = 'windows';
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly bridge: WindowsBridge,
    private readonly scriptDir: string,
    private screen: { width: number; height: number },
  ) {}

  /** Starts the PowerShell helper and asks it for the screen size. */
  static async start(powershell = 'powershell.exe'): Promise<WindowsBackend> {
    const scriptDir = mkdtempSync(join(tmpdir(), 'warden-screen-host-'));
    const script = join(scriptDir, 'helper.ps1');
    // A BOM makes Windows PowerShell 5.1 read the script as UTF-8.
    writeFileSync(script, `\ufeff${HELPER_SCRIPT}`, 'utf8');
    const child = spawn(
      powershell,
      ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', script],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      },
    );
    const bridge = new WindowsBridge(child.stdin, child.stdout);
    child.on('error', (err) =>
      bridge.fail(new Error(`PowerShell could not be started: ${err.message}`)),
    );
    child.on('close', (code) =>
      bridge.fail(new Error(`the PowerShell helper exited with ${code}`)),
    );
    child.stderr.resume();
    try {
      const size = await bridge.request({ op: 'size' });
      return new WindowsBackend(child, bridge, scriptDir, {
        width: size.width!,
        height: size.height!,
      });
    } catch (err) {
      child.kill();
      rmSync(scriptDir, { recursive: true, force: true });
      throw err;
    }
  }

  size() {
    return this.screen;
  }

  async screenshot(): Promise<Screenshot> {
    const answer = await this.bridge.request({ op: 'screenshot' });
    if (!answer.png) throw new Error('the PowerShell helper sent no screenshot');
    this.screen = { width: answer.width!, height: answer.height! };
    return { png: Buffer.from(answer.png, 'base64'), ...this.screen };
  }

  async perform(action: CheckedAction): Promise<void> {
    await this.bridge.request(opForAction(action));
  }

  elements(): OutlineElement[] | null {
    return null;
  }

  typingTarget(): TypingTarget {
    return 'unknown';
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    this.child.kill();
    rmSync(this.scriptDir, { recursive: true, force: true });
  }
}
