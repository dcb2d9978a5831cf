import type { FieldErrors, FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** Binds a react-hook-form field to an MUI TextField, with the translated rule message as helper text. */
export function useField<T extends FieldValues>(register: UseFormRegister<T>, errors: FieldErrors<T>) {
  const { t } = useTranslation('auth');
  return (name: Path<T>) => {
    const { ref, ...rest } = register(name);
    const message = errors[name]?.message;
    return { ...rest, inputRef: ref, error: Boolean(message), helperText: typeof message === 'string' ? t(message, { ns: 'common' }) : undefined };
  };
}
