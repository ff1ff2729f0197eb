/**
 * Windows: a long-lived PowerShell process does the work (System.Drawing for the screenshot,
 * SendInput for input), spoken to in JSON lines; a second one reads SAP GUI through SAP GUI
 * Scripting for the outline (sapgui/). Untested on Windows so far (see docs/screen-host.md).
 */
import type { CheckedAction } from '../../actions';
import type {
  BackendHealth,
  OutlineElement,
  ScreenBackend,
  Screenshot,
  TypingTarget,
} from '../backend';
import { helperScript, type PowerShellHelper, spawnHelper } from './powershell-helper';
import { SAPGUI_HELPER_SCRIPT } from './sapgui/sapgui-script';
import { type SapGuiMode, SapGuiProvider, type SapGuiRead } from './sapgui/sapgui-provider';
import { opForAction } from './windows-protocol';

/** The screen and input helper: System.Drawing screenshots, SendInput. */
export const HELPER_SCRIPT = helperScript(
  String.raw`
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
`,
  String.raw`
      'size' { $extra = Size }
      'screenshot' { $extra = Shot }
      'click' { [WardenInput]::Click([int]$req.x, [int]$req.y, [int]$req.count) }
      'scroll' { [WardenInput]::Scroll([int]$req.x, [int]$req.y, [int]$req.dx, [int]$req.dy) }
      'key' { [WardenInput]::Keys([int[]]$req.vks, [bool[]]$req.extended) }
      'type' { [WardenInput]::Type([string]$req.text) }
`,
);

/**
 * How long the host waits for SAP GUI: Warden gives GET /elements 5 s, and an outline that comes
 * late must not fail the step (without one, Warden reads the pixels).
 */
export const SAPGUI_TIMEOUT_MS = 3500;

export interface WindowsBackendOptions {
  /** `powershell.exe` (Windows PowerShell 5.1) unless given. */
  powershell?: string;
  /** SAP GUI Scripting for the outline (default `tree`: GetObjectTree where the release has it). */
  sapGui?: SapGuiMode;
  /** The PowerShell that reads SAP GUI; default `powershell`. */
  sapGuiPowershell?: string;
}

/** How long a helper may take to start (PowerShell, then Add-Type compiling its C#). */
const START_TIMEOUT_MS = 15_000;

/**
 * The SAP GUI helper, started ahead of the first question and started again after it failed or
 * hung: a COM call that never returns holds up only this process, which is then ended.
 */
class SapGuiHelper {
  private started: Promise<PowerShellHelper> | null = null;

  constructor(private readonly powershell: string) {}

  /** Starts the helper and waits (up to START_TIMEOUT_MS) until it answers. */
  private start(): Promise<PowerShellHelper> {
    this.started ??= (async () => {
      const helper = spawnHelper(SAPGUI_HELPER_SCRIPT, this.powershell, SAPGUI_TIMEOUT_MS);
      try {
        await helper.bridge.request({ op: 'ping' }, START_TIMEOUT_MS);
        return helper;
      } catch (err) {
        helper.close();
        throw err;
      }
    })();
    const started = this.started;
    started.catch(() => {
      if (this.started === started) this.started = null;
    });
    return started;
  }

  /** Starts the helper now, so that the first outline does not wait for PowerShell. */
  warm(): void {
    this.start().catch(() => undefined);
  }

  async ask(read: SapGuiRead): Promise<unknown> {
    const started = this.start();
    const helper = await started;
    try {
      const answer = await helper.bridge.request({ op: 'sapgui', read });
      return answer.sapgui;
    } catch (err) {
      helper.close();
      if (this.started === started) this.started = null;
      throw err;
    }
  }

  close(): void {
    const started = this.started;
    this.started = null;
    started?.then((h) => h.close()).catch(() => undefined);
  }
}

export class WindowsBackend implements ScreenBackend {
  readonly name = 'windows';
  private constructor(
    private readonly helper: PowerShellHelper,
    private readonly sapHelper: SapGuiHelper,
    private readonly sap: SapGuiProvider,
    private screen: { width: number; height: number },
  ) {}

  /** Starts the PowerShell helper and asks it for the screen size. */
  static async start(options: WindowsBackendOptions = {}): Promise<WindowsBackend> {
    const powershell = options.powershell ?? 'powershell.exe';
    const helper = spawnHelper(HELPER_SCRIPT, powershell);
    try {
      const size = await helper.bridge.request({ op: 'size' });
      const sapHelper = new SapGuiHelper(options.sapGuiPowershell ?? powershell);
      const sap = new SapGuiProvider(options.sapGui ?? 'tree', (read) => sapHelper.ask(read));
      if (sap.enabled) sapHelper.warm();
      return new WindowsBackend(helper, sapHelper, sap, {
        width: size.width!,
        height: size.height!,
      });
    } catch (err) {
      helper.close();
      throw err;
    }
  }

  size() {
    return this.screen;
  }

  async screenshot(): Promise<Screenshot> {
    const answer = await this.helper.bridge.request({ op: 'screenshot' });
    if (!answer.png) throw new Error('the PowerShell helper sent no screenshot');
    this.screen = { width: answer.width!, height: answer.height! };
    return { png: Buffer.from(answer.png, 'base64'), ...this.screen };
  }

  async perform(action: CheckedAction): Promise<void> {
    await this.helper.bridge.request(opForAction(action));
  }

  /** SAP GUI's outline where SAP GUI Scripting gives one (sapgui/), else none. */
  elements(): Promise<OutlineElement[] | null> {
    return this.sap.outline(this.screen);
  }

  async health(): Promise<BackendHealth> {
    if (!this.sap.enabled) return { elements: false };
    const sapGui = await this.sap.health();
    return { elements: sapGui.state === 'ok', facts: { sap_gui: sapGui } };
  }

  typingTarget(): TypingTarget {
    return 'unknown';
  }

  async close(): Promise<void> {
    this.sapHelper.close();
    this.helper.close();
  }
}
