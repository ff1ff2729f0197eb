/**
 * The COM part of the SAP GUI outline: the PowerShell helper the windows backend starts for SAP
 * GUI Scripting, apart from the one for the screen and input, answering the op `sapgui`
 * (powershell-helper.ts runs the request loop). NOT YET RUN AGAINST A REAL SAP GUI:
 * no Windows machine with SAP GUI is part of this project's tests; docs/screen-host.md lists what
 * a first pilot must check. It only reads: no property is set, no method that acts is called.
 *
 * - The way in is SAP's own: `SapROTWr.SapROTWrapper` (installed with SAP GUI) finds the running
 *   object table's "SAPGUI" entry, whose `GetScriptingEngine` is the GuiApplication. SAP GUI's
 *   objects are late-bound IDispatch objects that PowerShell's COM adapter does not see into, so
 *   every property is read with Type.InvokeMember, as SAP's own PowerShell examples do.
 * - `read: probe` says whether scripting works and what the session is (GET /health);
 *   `read: tree` reads every window of the active session with `GetObjectTree(windowId, props)`
 *   where the release has it, element by element otherwise; `read: walk` always element by
 *   element. Each tree goes back as base64 of its JSON text, so nothing in it needs escaping here.
 * - A GuiPasswordField's Text is never read (SAP GUI gives none anyway).
 * - Each window's Handle gives Windows' own rectangle of it, and whether the active one is in
 *   front, so that the host can place the elements or refuse (sapgui-geometry.ts). The process
 *   declares itself DPI-aware, as the screen helper does, so those rectangles are physical pixels.
 * - The element-by-element read stops after 3 s or 10,000 elements (refused `too_large`): the
 *   host must answer within the 5 s Warden gives GET /elements.
 */
import { helperScript } from '../powershell-helper';

const SAPGUI_PROLOGUE = String.raw`
Add-Type -TypeDefinition @'
using System;
using System.Runtime.InteropServices;
public static class WardenWindows {
  [StructLayout(LayoutKind.Sequential)] public struct RECT { public int Left; public int Top; public int Right; public int Bottom; }
  [DllImport("user32.dll")] public static extern bool GetWindowRect(IntPtr window, out RECT rect);
  [DllImport("user32.dll")] public static extern IntPtr GetForegroundWindow();
  [DllImport("user32.dll")] public static extern IntPtr GetAncestor(IntPtr window, uint flags);
  [DllImport("user32.dll")] public static extern bool SetProcessDPIAware();
  public static IntPtr Root(IntPtr window) { return GetAncestor(window, 2); }
}
'@
[WardenWindows]::SetProcessDPIAware() | Out-Null
$SapProps = @('Id', 'Type', 'Name', 'Text', 'Tooltip', 'DefaultTooltip', 'AccTooltip', 'IconName',
  'Changeable', 'Modified', 'Selected', 'IsSymbolFont', 'ScreenLeft', 'ScreenTop', 'Width', 'Height',
  'ContainerType', 'Value')
$SapInfoProps = @('SystemName', 'Client', 'User', 'Language', 'Transaction', 'Program', 'ScreenNumber',
  'SessionNumber', 'ScriptingModeReadOnly', 'ScriptingModeRecordingDisabled')
$script:SapEngine = $null
$script:SapNoObjectTree = $false

# The comma keeps PowerShell from unrolling a returned COM collection into its items.
function Sap-Get($object, [string]$name) {
  return ,([System.__ComObject].InvokeMember($name, [System.Reflection.BindingFlags]::GetProperty, $null, $object, $null))
}
function Sap-Call($object, [string]$name, [object[]]$arguments) {
  return ,([System.__ComObject].InvokeMember($name, [System.Reflection.BindingFlags]::InvokeMethod, $null, $object, $arguments))
}
function Sap-Item($collection, [int]$index) { return ,(Sap-Call $collection 'ElementAt' @($index)) }
function Sap-Refuse([string]$code, [string]$detail) { return @{ refused = $code; detail = $detail } }

function Sap-Engine {
  if ($null -ne $script:SapEngine) { return ,$script:SapEngine }
  try { $rot = New-Object -ComObject 'SapROTWr.SapROTWrapper' }
  catch { return Sap-Refuse 'not_installed' 'SapROTWr.SapROTWrapper is not registered: SAP GUI for Windows is not installed for this user' }
  $entry = $rot.GetROTEntry('SAPGUI')
  if ($null -eq $entry) { return Sap-Refuse 'not_running' 'SAP Logon is not running in this Windows session' }
  try { $engine = Sap-Call $entry 'GetScriptingEngine' $null }
  catch { return Sap-Refuse 'scripting_disabled' ('the scripting engine refused: ' + $_.Exception.Message) }
  if ($null -eq $engine) { return Sap-Refuse 'scripting_disabled' 'SAP GUI gave no scripting engine: scripting is switched off on this PC' }
  $script:SapEngine = $engine
  return ,$engine
}

# The active session, or a refusal. Every connection is asked whether its server disabled
# scripting: such a connection shows no sessions at all.
function Sap-Session {
  $engine = Sap-Engine
  if ($engine -is [hashtable]) { return $engine }
  $connections = Sap-Get $engine 'Children'
  $count = [int](Sap-Get $connections 'Count')
  if ($count -eq 0) { return Sap-Refuse 'no_session' 'SAP Logon has no connection open' }
  $disabled = 0
  for ($i = 0; $i -lt $count; $i++) {
    if ([bool](Sap-Get (Sap-Item $connections $i) 'DisabledByServer')) { $disabled++ }
  }
  $session = Sap-Get $engine 'ActiveSession'
  if ($null -eq $session) {
    if ($disabled -gt 0) { return Sap-Refuse 'disabled_by_server' ('' + $disabled + ' of ' + $count + ' connections say DisabledByServer') }
    return Sap-Refuse 'no_session' 'no SAP GUI session is active'
  }
  if ([bool](Sap-Get (Sap-Get $session 'Parent') 'DisabledByServer')) {
    return Sap-Refuse 'disabled_by_server' 'the active session''s connection says DisabledByServer'
  }
  if ([bool](Sap-Get $session 'Busy')) { return Sap-Refuse 'busy' 'the session is busy with a round trip to the server' }
  return @{ session = $session }
}

function Sap-Info($session) {
  $info = Sap-Get $session 'Info'
  $out = [ordered]@{}
  foreach ($name in $SapInfoProps) {
    try { $out[$name] = [string](Sap-Get $info $name) } catch { }
  }
  return $out
}

# One element and what it holds, in GetObjectTree's shape, each property as a string.
function Sap-Walk($object, [int]$depth, [DateTime]$deadline, [ref]$count) {
  if ($depth -gt 40) { throw 'the element-by-element read is deeper than 40 levels' }
  if ([DateTime]::UtcNow -gt $deadline) { throw 'the element-by-element read took longer than 3 s' }
  $count.Value++
  if ($count.Value -gt 10000) { throw 'the element-by-element read found more than 10000 elements' }
  $type = [string](Sap-Get $object 'Type')
  $props = [ordered]@{}
  foreach ($name in $SapProps) {
    if ($name -eq 'Text' -and $type -eq 'GuiPasswordField') { continue }
    if ($name -eq 'Selected' -and $type -ne 'GuiCheckBox' -and $type -ne 'GuiRadioButton') { continue }
    if ($name -eq 'Value' -and $type -ne 'GuiComboBox') { continue }
    try { $value = Sap-Get $object $name; if ($null -ne $value) { $props[$name] = [string]$value } } catch { }
  }
  $children = New-Object System.Collections.ArrayList
  # A closed menu's entries and the status bar's panes are never served: not read.
  if ($props['ContainerType'] -eq 'True' -and $type -ne 'GuiMenubar' -and $type -ne 'GuiStatusbar') {
    $kids = Sap-Get $object 'Children'
    $n = [int](Sap-Get $kids 'Count')
    for ($i = 0; $i -lt $n; $i++) {
      [void]$children.Add((Sap-Walk (Sap-Item $kids $i) ($depth + 1) $deadline $count))
    }
  }
  return @{ properties = $props; children = $children.ToArray() }
}

# The element-by-element read of all windows shares one deadline and one count: the host must
# answer within Warden's 5 s for GET /elements.
function Sap-Tree($session, $window, [string]$read, [DateTime]$deadline, [ref]$count) {
  if ($read -ne 'walk' -and -not $script:SapNoObjectTree) {
    $arguments = New-Object object[] 2
    $arguments[0] = [string](Sap-Get $window 'Id')
    $arguments[1] = [object[]]$SapProps
    try {
      $json = [string](Sap-Call $session 'GetObjectTree' $arguments)
      if ($json) { return @{ source = 'object_tree'; json = $json } }
    } catch {
      # DISP_E_UNKNOWNNAME: this release has no GetObjectTree; anything else is tried again next time.
      $e = $_.Exception
      $unknown = -2147352570
      if ($e -is [System.MissingMethodException] -or $e.HResult -eq $unknown -or
          ($null -ne $e.InnerException -and $e.InnerException.HResult -eq $unknown)) { $script:SapNoObjectTree = $true }
    }
  }
  $node = Sap-Walk $window 0 $deadline $count
  return @{ source = 'walk'; json = (ConvertTo-Json -Compress -Depth 100 -InputObject @{ children = @($node) }) }
}

function Sap-WindowRect($window) {
  try {
    $handle = [IntPtr][long](Sap-Get $window 'Handle')
    $rect = New-Object WardenWindows+RECT
    if ([WardenWindows]::GetWindowRect($handle, [ref]$rect)) {
      return [ordered]@{ left = $rect.Left; top = $rect.Top; right = $rect.Right; bottom = $rect.Bottom }
    }
  } catch { }
  return $null
}

function Sap-Answer($value) { return ',"sapgui":' + (ConvertTo-Json -Compress -Depth 8 -InputObject $value) }

function Sap-Read([string]$read) {
  try {
    $found = Sap-Session
    if ($found.ContainsKey('refused')) { $script:SapEngine = $null; return Sap-Answer $found }
    $session = $found.session
    $info = Sap-Info $session
    if ($read -eq 'probe') { return Sap-Answer ([ordered]@{ state = 'ok'; session = $info }) }
    $active = Sap-Get $session 'ActiveWindow'
    $activeId = [string](Sap-Get $active 'Id')
    $foreground = $false
    try {
      $handle = [IntPtr][long](Sap-Get $active 'Handle')
      $foreground = [WardenWindows]::Root($handle) -eq [WardenWindows]::Root([WardenWindows]::GetForegroundWindow())
    } catch { }
    $focusId = $null
    try { $focus = Sap-Get $active 'GuiFocus'; if ($null -ne $focus) { $focusId = [string](Sap-Get $focus 'Id') } } catch { }
    $status = $null
    try {
      $bar = Sap-Call $session 'FindById' @('wnd[0]/sbar', $false)
      if ($null -ne $bar) {
        $status = [ordered]@{ Id = [string](Sap-Get $bar 'Id'); Text = [string](Sap-Get $bar 'Text');
          MessageType = [string](Sap-Get $bar 'MessageType'); MessageAsPopup = [string](Sap-Get $bar 'MessageAsPopup') }
      }
    } catch { }
    $windows = New-Object System.Collections.ArrayList
    $trees = New-Object System.Collections.ArrayList
    $source = 'object_tree'
    $kids = Sap-Get $session 'Children'
    $n = [int](Sap-Get $kids 'Count')
    $deadline = [DateTime]::UtcNow.AddSeconds(3)
    $count = [ref]0
    if ($n -gt 8) { return Sap-Answer (Sap-Refuse 'too_large' ('the session has ' + $n + ' windows')) }
    for ($i = 0; $i -lt $n; $i++) {
      $window = Sap-Item $kids $i
      [void]$windows.Add([ordered]@{ id = [string](Sap-Get $window 'Id'); window_rect = (Sap-WindowRect $window) })
      $tree = Sap-Tree $session $window $read $deadline $count
      if ($tree.source -eq 'walk') { $source = 'walk' }
      [void]$trees.Add([Convert]::ToBase64String([System.Text.Encoding]::UTF8.GetBytes($tree.json)))
    }
    return Sap-Answer ([ordered]@{ source = $source; session = $info; active_window = $activeId;
      focus = $focusId; foreground = $foreground; status = $status; windows = $windows.ToArray();
      trees_b64 = $trees.ToArray() })
  } catch {
    $message = [string]$_.Exception.Message
    if ($message -like 'the element-by-element read*') { return Sap-Answer (Sap-Refuse 'too_large' $message) }
    $script:SapEngine = $null
    return Sap-Answer (Sap-Refuse 'error' ('SAP GUI Scripting: ' + $message))
  }
}
`;

export const SAPGUI_HELPER_SCRIPT = helperScript(
  SAPGUI_PROLOGUE,
  String.raw`
      'ping' { }
      'sapgui' { $extra = Sap-Read ([string]$req.read) }
`,
);
