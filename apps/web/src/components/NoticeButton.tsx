import { Badge, IconButton, Tooltip } from '@mui/material';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../store';
import { openNotice } from '../store/notice';

/** Opens the notice popup; hidden when there is no notice (console-spec §2). */
export default function NoticeButton() {
  const { t } = useTranslation();
  const text = useAppSelector((s) => s.notice.text);
  const dispatch = useAppDispatch();
  if (!text.trim()) return null;
  return (
    <Tooltip title={t('chrome.notice')}>
      <IconButton color="inherit" aria-label={t('chrome.notice')} data-testid="notice-button" onClick={() => dispatch(openNotice(true))}>
        <Badge variant="dot" color="error">
          <CampaignOutlined />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
