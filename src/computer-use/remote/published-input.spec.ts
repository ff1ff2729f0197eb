import type { OutlineElement } from '../actions';
import type { ObservedScreen, StepHistory } from '../planner-contract/planner';
import { frameId, INPUT_SCHEMA, MAX_HISTORY, outlineText, publishedInput } from './published-input';

const png = Buffer.from('89504e470d0a1a0a', 'hex');
const outline: OutlineElement[] = [
  {
    id: 'wnd[0]/titl',
    role: 'title',
    name: 'Change Sales Order: Initial Screen',
    rect: { x: 0, y: 0, width: 800, height: 20 },
  },
  {
    id: 'wnd[0]/usr/ctxtVBAK-VBELN',
    role: 'textbox',
    name: 'Order',
    value: '4711',
    rect: { x: 10, y: 40, width: 100, height: 20 },
    states: ['editable', 'changeable'],
    area: 'input',
  },
  {
    id: 'pw',
    role: 'textbox',
    name: 'Password',
    password: true,
    value: 'never',
    rect: { x: 10, y: 70, width: 100, height: 20 },
  },
];
const screen: ObservedScreen = {
  sha256: 'a'.repeat(64),
  pixelSha256: 'b'.repeat(64),
  frameSha256: 'c'.repeat(64),
  width: 800,
  height: 600,
  png,
  outline,
};
const history: StepHistory[] = [
  {
    n: 1,
    action: { action: 'key', key: 'Tab' },
    classification: 'read',
    why: 'key Tab navigates',
    outcome: 'sent',
    error: null,
    screen_sha256: 'a'.repeat(64),
  },
];
const context = {
  goal: 'change order 4711',
  system: 'SAP GUI',
  step: 2,
  maxSteps: 20,
  screen,
  history,
};

describe('publishedInput: the step as a remote planner is given it', () => {
  it('has the task, the step and its cap, the frame, the outline, the window, the history, the last outcome', () => {
    const input = publishedInput('acme-vision-1-normal', context, false);
    expect(input).toEqual({
      schema: INPUT_SCHEMA,
      planner: 'acme-vision-1-normal',
      task: 'change order 4711',
      system: 'SAP GUI',
      step: 2,
      max_steps: 20,
      frame: { id: 'c'.repeat(64), png_sha256: 'a'.repeat(64), width: 800, height: 600 },
      outline: {
        elements: [
          {
            id: 'wnd[0]/titl',
            role: 'title',
            name: 'Change Sales Order: Initial Screen',
            rect: { x: 0, y: 0, width: 800, height: 20 },
          },
          {
            id: 'wnd[0]/usr/ctxtVBAK-VBELN',
            role: 'textbox',
            name: 'Order',
            value: '4711',
            rect: { x: 10, y: 40, width: 100, height: 20 },
            states: ['editable', 'changeable'],
            area: 'input',
          },
          {
            id: 'pw',
            role: 'textbox',
            name: 'Password',
            rect: { x: 10, y: 70, width: 100, height: 20 },
          },
        ],
        text: 'title "Change Sales Order: Initial Screen"\ntextbox "Order" = "4711"\ntextbox "Password"',
      },
      focused_window: { title: 'Change Sales Order: Initial Screen' },
      history: [
        {
          n: 1,
          action: { action: 'key', key: 'Tab' },
          classification: 'read',
          outcome: 'sent',
          why: 'key Tab navigates',
          error: null,
        },
      ],
      last_outcome: 'sent',
      image: null,
    });
  });

  it('carries the screenshot only for a family with pixels', () => {
    expect(publishedInput('p-1-normal', context, true).image).toEqual({
      media_type: 'image/png',
      base64: png.toString('base64'),
    });
  });

  it('never publishes a password field’s value', () => {
    const input = publishedInput('p-1-normal', context, false);
    expect(JSON.stringify(input)).not.toContain('never');
  });

  it('has no outline nor window where the host serves none, and bounds the history', () => {
    const long = Array.from({ length: MAX_HISTORY + 5 }, (_, i) => ({ ...history[0], n: i + 1 }));
    const input = publishedInput(
      'p-1-normal',
      { ...context, screen: { ...screen, outline: null }, history: long },
      false,
    );
    expect(input.outline).toBeNull();
    expect(input.focused_window).toBeNull();
    expect(input.history).toHaveLength(MAX_HISTORY);
    expect(input.history[0].n).toBe(6);
  });

  it('names the frame by the host’s frame hash, else the pixel hash (the same definition)', () => {
    expect(frameId({ frameSha256: null, pixelSha256: 'b'.repeat(64) })).toBe('b'.repeat(64));
    expect(frameId({ frameSha256: 'f'.repeat(64), pixelSha256: 'b'.repeat(64) })).toBe(
      'f'.repeat(64),
    );
    expect(outlineText([])).toBe('');
  });

  it('names a redacted frame by the hash of its pixels as published, never the real frame’s', () => {
    const redacted = { frameSha256: 'f'.repeat(64), pixelSha256: 'b'.repeat(64) };
    expect(frameId({ ...redacted, hiddenSha256: 'c'.repeat(64) })).toBe('b'.repeat(64));
    const input = publishedInput(
      'p-1-normal',
      { ...context, screen: { ...screen, ...redacted, hiddenSha256: 'c'.repeat(64) } },
      false,
    );
    expect(input.frame.id).toBe('b'.repeat(64));
  });
});
