import { Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { OptionKey } from '@one-hub/contract';
import type { FieldSpec } from './option-draft';
import { OptionFields } from './OptionFields';
import { SettingSection } from './SettingSection';
import { ContentPreview } from './ContentPreview';
import { UpdateCheck } from './UpdateCheck';
import { ApiDocsLink } from './ApiDocsLink';
import type { OptionMap } from './use-options';

const field = (key: OptionKey, input?: FieldSpec['input']): FieldSpec[] => [{ key, input, wide: true }];
const NOTICE = field('Notice', 'area');
const SYSTEM_NAME = field('SystemName');
const LOGO = field('Logo');
const HOME = field('HomePageContent', 'area');
const ABOUT = field('About', 'area');
const FOOTER = field('Footer', 'area');
const ANALYTICS = field('AnalyticsCode', 'area');

/** Fields whose draft is previewed as visitors will see it. */
function Previewed({ fields, options, saveLabel }: { fields: FieldSpec[]; options: OptionMap; saveLabel: string }) {
  const key = fields[0].key;
  return (
    <OptionFields fields={fields} options={options} saveLabel={saveLabel} testId={`fields-${key}`}>
      {(drafts) => <ContentPreview text={drafts[key] ?? ''} name={key} />}
    </OptionFields>
  );
}

/** Other tab (console-screens §9.3). */
export function OtherTab({ options }: { options: OptionMap }) {
  const { t } = useTranslation('setting');
  return (
    <Stack spacing={3}>
      <SettingSection title={t('section.general')}>
        <UpdateCheck />
        <ApiDocsLink />
        <Previewed fields={NOTICE} options={options} saveLabel="saveNotice" />
      </SettingSection>
      <SettingSection title={t('section.personalisation')}>
        <OptionFields fields={SYSTEM_NAME} options={options} saveLabel="setSystemName" testId="fields-SystemName" />
        <OptionFields fields={LOGO} options={options} saveLabel="setLogo" />
        <Previewed fields={HOME} options={options} saveLabel="saveHomePage" />
        <Previewed fields={ABOUT} options={options} saveLabel="saveAbout" />
        <Previewed fields={FOOTER} options={options} saveLabel="saveFooter" />
        <OptionFields fields={ANALYTICS} options={options} saveLabel="saveAnalytics" />
      </SettingSection>
    </Stack>
  );
}
