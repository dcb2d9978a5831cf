import { PlanBody, type Plan } from '@one-hub/contract';

/** The plan dialog's fields as typed (text inputs; lists comma-separated). */
export interface PlanForm {
  name: string;
  description: string;
  price: string;
  currency: string;
  duration_kind: string;
  duration_count: string;
  window_kind: string;
  window_quota: string;
  groups: string;
  models: string;
  renews: boolean;
  public: boolean;
  enabled: boolean;
  sort: string;
}

export const NEW_PLAN: PlanForm = {
  name: '',
  description: '',
  price: '9.90',
  currency: 'USD',
  duration_kind: 'month',
  duration_count: '1',
  window_kind: '5h',
  window_quota: '500000',
  groups: '',
  models: '',
  renews: true,
  public: true,
  enabled: true,
  sort: '0',
};

const names = (text: string) =>
  text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

export function planToForm(p: Plan): PlanForm {
  return {
    ...p,
    price: p.price.toFixed(2),
    duration_count: String(p.duration_count),
    window_quota: String(p.window_quota),
    groups: p.groups.join(','),
    models: p.models.join(','),
    sort: String(p.sort),
  };
}

/** Checks the form with the contract's schema; answers the body, or errors by field (i18n keys or server words). */
export function formToBody(f: PlanForm): { body?: Record<string, unknown>; errors: Record<string, string> } {
  const parsed = PlanBody.safeParse({ ...f, groups: names(f.groups), models: names(f.models) });
  if (parsed.success) return { body: parsed.data, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { errors };
}
