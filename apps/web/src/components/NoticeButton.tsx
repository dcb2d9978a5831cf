import { Badge, IconButton, Tooltip } from '@mui/material';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../store';
import { openNotice } from '../store/notice';

/** Opens the notice popup; hidden when there is no notice (console-spec §2); its dot clears once the notice is read. */
export default function NoticeButton() {
  const { t } = useTranslation();
  const { text, read } = useAppSelector((s) => s.notice);
  const dispatch = useAppDispatch();
  if (!text.trim()) return null;
  return (
    <Tooltip title={t('chrome.notice')}>
      <IconButton color="inherit" aria-label={t('chrome.notice')} data-testid="notice-button" onClick={() => dispatch(openNotice(true))}>
        <Badge variant="dot" color="error" invisible={read} data-testid="notice-dot" data-unread={!read}>
          <CampaignOutlined />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
