import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import KeyValueField from './KeyValueField';
import { fromRows, toRows } from './KeyValueField';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'channel']);
});
afterEach(cleanup);

describe('key/value rows', () => {
  it('reads flat string objects only and writes rows back without keyless ones', () => {
    expect(toRows('')).toEqual([]);
    expect(toRows('{"a":"b","c":"d"}')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(toRows('{"a":1}')).toBeNull();
    expect(toRows('[1]')).toBeNull();
    expect(toRows('{bad')).toBeNull();
    expect(fromRows([[' a ', ' b '], ['', 'x']])).toBe('{\n  "a": "b"\n}');
    expect(fromRows([['', '']])).toBe('');
  });

  it('keeps a row without a key while typing, and follows a value set from outside', () => {
    function Host() {
      const [v, setV] = useState('');
      return (
        <>
          <KeyValueField label="Map" name="m" value={v} onChange={setV} keyLabel="K" valueLabel="V" />
          <button onClick={() => setV('{"x":"y"}')}>outside</button>
          <output data-testid="out">{v}</output>
        </>
      );
    }
    render(<Host />);
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    fireEvent.change(screen.getByLabelText('V'), { target: { value: 'up' } });
    expect(screen.getByTestId('out').textContent).toBe('');
    expect((screen.getByLabelText('V') as HTMLInputElement).value).toBe('up');
    fireEvent.change(screen.getByLabelText('K'), { target: { value: 'req' } });
    expect(JSON.parse(screen.getByTestId('out').textContent!)).toEqual({ req: 'up' });
    fireEvent.click(screen.getByRole('button', { name: 'outside' }));
    expect((screen.getByLabelText('K') as HTMLInputElement).value).toBe('x');
  });
});
