import { openaiCompatibleProvider } from '../computer-use/models/providers/openai-compatible.provider';
import { answerOf, turnOf, withoutImages, type WorkInput } from './worker-turn';

const input: WorkInput = {
  task: 'display order 4711',
  system: 'SAP GUI',
  step: 2,
  max_steps: 20,
  frame: { id: 'c'.repeat(64), png_sha256: 'a'.repeat(64), width: 800, height: 600 },
  outline: { text: 'button "Display"' },
  focused_window: { title: 'SAP Easy Access' },
  history: [{ n: 1, action: { action: 'key', key: 'Tab' }, outcome: 'sent', why: null }],
  last_outcome: 'sent',
  image: null,
};

describe("the reference worker's request and answer", () => {
  it('tells the model the task, the outline, the history and the step, in the provider’s wire format', () => {
    const { turn, withImage } = turnOf(input, 'local-vlm');
    expect(withImage).toBe(false);
    const body = withoutImages(openaiCompatibleProvider.request(turn));
    const text = JSON.stringify(body);
    expect(body.model).toBe('local-vlm');
    expect(text).toContain('display order 4711');
    expect(text).toContain('button \\"Display\\"');
    expect(text).toContain('Window: SAP Easy Access');
    expect(text).toContain('step 2 of at most 20');
    expect(text).toContain('1. {\\"action\\":\\"key\\",\\"key\\":\\"Tab\\"}: sent');
    expect(text).not.toContain('image_url');
  });

  it('sends the screenshot for a family with pixels', () => {
    const png = Buffer.from('89504e47', 'hex');
    const { turn, withImage } = turnOf(
      { ...input, image: { media_type: 'image/png', base64: png.toString('base64') } },
      'm',
    );
    expect(withImage).toBe(true);
    expect(JSON.stringify(openaiCompatibleProvider.request(turn))).toContain(
      `data:image/png;base64,${png.toString('base64')}`,
    );
  });

  it('answers the model’s action as the decision; anything else too, for Warden to refuse', () => {
    const read = (content: string) =>
      openaiCompatibleProvider.read({ choices: [{ message: { content } }] });
    expect(answerOf(read('{"action":"done","summary":"ok","x":null}'))).toEqual({
      decision: { action: 'done', summary: 'ok' },
    });
    expect(answerOf(read('I cannot help with that'))).toEqual({
      decision: { model_answer: 'I cannot help with that' },
    });
  });
});
