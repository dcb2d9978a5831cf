import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import CaptureView from './components/CaptureView';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'log']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

describe('captured bodies beside a log row', { timeout: 20_000 }, () => {
  it('loads the captures of the request on demand and shows each attempt', async () => {
    api = fakeApi(() => [{ id: 1, created_at: 1, request_id: 'req-1', user_id: 2, token_id: 3, channel_id: 9, status: 502, request_headers: '{"authorization":"[redacted]"}', request_body: '{"model":"m"}', response_body: 'upstream said no', stream: false }]);
    renderWithProviders(<CaptureView requestId="req-1" />);
    expect(api.calls).toHaveLength(0);
    fireEvent.click(screen.getByTestId('capture-open'));
    const view = await screen.findByTestId('capture-view');
    expect(view.textContent).toContain('Channel #9 · status 502');
    expect(view.textContent).toContain('"authorization":"[redacted]"');
    expect(view.textContent).toContain('upstream said no');
    expect(api.calls[0].url).toContain('/api/log/capture?request_id=req-1');
  });

  it('labels a captured streamed answer as the event stream the client received', async () => {
    const stream = 'data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n';
    api = fakeApi(() => [{ id: 2, created_at: 1, request_id: 'req-2', user_id: 2, token_id: 3, channel_id: 9, status: 200, request_headers: '{}', request_body: '{"stream":true}', response_body: stream, stream: true }]);
    renderWithProviders(<CaptureView requestId="req-2" />);
    fireEvent.click(screen.getByTestId('capture-open'));
    const view = await screen.findByTestId('capture-view');
    expect(view.textContent).toContain('Streamed answer (as the client received it, redacted)');
    expect(view.textContent).toContain('data: [DONE]');
  });

  it("labels Gemini's JSON-array stream and a stream opened by keep-alives as streams, by the capture's flag", async () => {
    const bodies = ['\n\n[{"candidates":[]},\r\n{"candidates":[]}]', '::PING\n\ndata: {"choices":[]}\n\n'];
    api = fakeApi(() => bodies.map((body, i) => ({ id: 3 + i, created_at: 1, request_id: 'req-3', user_id: 2, token_id: 3, channel_id: 9, status: 200, request_headers: '{}', request_body: '{}', response_body: body, stream: true })));
    renderWithProviders(<CaptureView requestId="req-3" />);
    fireEvent.click(screen.getByTestId('capture-open'));
    const view = await screen.findByTestId('capture-view');
    expect(view.textContent?.split('Streamed answer (as the client received it, redacted)')).toHaveLength(3);
  });
});
