import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { LogEntry } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { renderWithProviders } from '../../test-utils/providers';
import QuotaDetail from './components/QuotaDetail';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'log']);
});
afterEach(cleanup);

const row = (metadata: Record<string, unknown> | null, estimated = false) =>
  ({ id: 1, type: 2, quota: 100, prompt_tokens: 10, completion_tokens: 5, group: 'default', estimated, metadata }) as unknown as LogEntry;

describe('log cost detail', { timeout: 30_000 }, () => {
  it('says which plan paid for a request', () => {
    renderWithProviders(<QuotaDetail log={row({ door: '/v1/chat/completions', usage_source: 'reported', plan_id: 3, subscription_id: 9, plan_quota: 250_000 })} />);
    const line = screen.getByTestId('plan-paid');
    expect(line.textContent).toContain('Paid by plan #3 (subscription #9)');
    expect(line.textContent).toContain('$0.500000 of the plan window');
  });

  it('shows no plan line for requests the balance paid', () => {
    renderWithProviders(<QuotaDetail log={row({ door: '/v1/chat/completions', usage_source: 'reported' })} />);
    expect(screen.queryByTestId('plan-paid')).toBeNull();
  });

  it('shows the door, the conversion and whether usage was estimated', () => {
    renderWithProviders(<QuotaDetail log={row({ door: '/v1/responses', converted_to: 'anthropic', usage_source: 'estimated', group_name: 'default', group_ratio: 1, price_type: 'tokens', input_ratio: 1, output_ratio: 1 }, true)} />);
    const route = screen.getByTestId('request-route');
    expect(route.textContent).toContain('Door: /v1/responses');
    expect(route.textContent).toContain('Converted for anthropic');
    expect(route.textContent).toContain('Usage estimated by the gateway');
    expect(screen.getByTestId('quota-detail')).toBeTruthy();
  });

  it('shows reported usage without a conversion chip, even without a price breakdown, and nothing for old rows', () => {
    renderWithProviders(<QuotaDetail log={row({ door: '/v1/messages', usage_source: 'reported' })} />);
    const route = screen.getByTestId('request-route');
    expect(route.textContent).toContain('Usage reported by upstream');
    expect(route.textContent).not.toContain('Converted');
    cleanup();
    renderWithProviders(<QuotaDetail log={row(null)} />);
    expect(screen.queryByTestId('request-route')).toBeNull();
    expect(screen.getByText('No price breakdown was recorded for this row.')).toBeTruthy();
  });

  it('names the input-size tier that priced a tiered request', () => {
    renderWithProviders(<QuotaDetail log={row({ group_name: 'default', group_ratio: 1, price_type: 'tokens', input_ratio: 2, output_ratio: 3, price_tier: '> 200000' })} />);
    expect(screen.getByTestId('price-tier').textContent).toBe('Price tier: prompt > 200,000 tokens');
    cleanup();
    renderWithProviders(<QuotaDetail log={row({ group_name: 'default', group_ratio: 1, price_type: 'tokens', input_ratio: 1, output_ratio: 1 })} />);
    expect(screen.queryByTestId('price-tier')).toBeNull();
  });

  it('shows the cache ratio the chosen tier billed at', () => {
    renderWithProviders(<QuotaDetail log={row({ group_name: 'default', group_ratio: 1, price_type: 'tokens', input_ratio: 2, output_ratio: 3, price_tier: '> 200000', cached_tokens: 40000, extra_ratios: { cached: 0.1 } })} />);
    expect(screen.getByTestId('class-ratios').textContent).toBe('Ratios applied: Cached 40000 × 0.1');
    cleanup();
    renderWithProviders(<QuotaDetail log={row({ group_name: 'default', group_ratio: 1, price_type: 'tokens', input_ratio: 1, output_ratio: 1 })} />);
    expect(screen.queryByTestId('class-ratios')).toBeNull();
  });

  it('shows the service tier, fast mode and cache writes a request was billed at, and prices it with the multiplier', () => {
    const meta = { group_name: 'default', group_ratio: 1, price_type: 'tokens', input_ratio: 1, output_ratio: 1, service_tier: 'priority', speed: 'fast', service_ratio: 9, cached_write_tokens: 20, cached_write_1h_tokens: 5, extra_ratios: { cached_write: 1.25, cached_write_1h: 2 } };
    renderWithProviders(<QuotaDetail log={row(meta)} />);
    expect(screen.getByTestId('service-class').textContent).toBe('Service tier: priority · Fast mode · whole price × 9');
    expect(screen.getByTestId('class-ratios').textContent).toBe('Ratios applied: Cache write 20 × 1.25 · Cache write (1 h) 5 × 2');
    // $2 per million × 9.
    expect(screen.getByTestId('quota-detail').textContent).toContain('Input: $18.0000 /M');
    cleanup();
    renderWithProviders(<QuotaDetail log={row({ group_name: 'default', group_ratio: 1, price_type: 'tokens', input_ratio: 1, output_ratio: 1, service_tier: 'default' })} />);
    expect(screen.getByTestId('service-class').textContent).toBe('Service tier: default');
    cleanup();
    renderWithProviders(<QuotaDetail log={row({ group_name: 'default', group_ratio: 1, price_type: 'tokens', input_ratio: 1, output_ratio: 1 })} />);
    expect(screen.queryByTestId('service-class')).toBeNull();
  });
});
