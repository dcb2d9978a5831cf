import { useCallback, useRef, useState } from 'react';
import { STEP_UP_REQUIRED, type StepUpFactors } from '@one-hub/contract';
import { ApiError } from '../../lib/api';
import { StepUpDialog } from './StepUpDialog';

/**
 * Runs a call that may reveal secrets; when the server answers `step_up_required`, asks for the
 * confirmation in a dialog and runs the call once more. Render `dialog` next to the caller's UI.
 */
export function useStepUp() {
  const [factors, setFactors] = useState<StepUpFactors | null>(null);
  const pending = useRef<((confirmed: boolean) => void) | null>(null);
  const settle = (confirmed: boolean) => {
    pending.current?.(confirmed);
    pending.current = null;
    setFactors(null);
  };
  const run = useCallback(async <T,>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== STEP_UP_REQUIRED) throw e;
      const confirmed = await new Promise<boolean>((resolve) => {
        pending.current = resolve;
        setFactors((e.data as StepUpFactors | undefined) ?? { two_factor: true, passkey: false });
      });
      if (!confirmed) throw e;
      return call();
    }
  }, []);
  const dialog = <StepUpDialog factors={factors} onClose={() => settle(false)} onConfirmed={() => settle(true)} />;
  return { run, dialog };
}
