import { useState } from 'react';
import { Accordion, AccordionDetails, AccordionSummary, Box, Dialog, DialogActions, DialogContent, DialogTitle, Button, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useTranslation } from 'react-i18next';
import type { AsyncTask } from '@one-hub/contract';
import { hasDetail, sunoClips, taskVideos, type SunoClip } from './task-data';

function JsonBlock({ value }: { value: unknown }) {
  return (
    <Box component="pre" data-testid="task-json" sx={{ m: 0, p: 1.5, borderRadius: 1, bgcolor: 'action.hover', fontSize: 12, overflow: 'auto', maxHeight: 420, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
      {JSON.stringify(value, null, 2)}
    </Box>
  );
}

function Section({ title, children, open = false }: { title: string; children: React.ReactNode; open?: boolean }) {
  return (
    <Accordion defaultExpanded={open} disableGutters>
      <AccordionSummary expandIcon={<ExpandMore />}>{title}</AccordionSummary>
      <AccordionDetails>{children}</AccordionDetails>
    </Accordion>
  );
}

function SunoView({ clips }: { clips: SunoClip[] }) {
  const { t } = useTranslation('task');
  const [index, setIndex] = useState(0);
  const clip = clips[Math.min(index, clips.length - 1)];
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '240px 1fr' } }} data-testid="suno-view">
      <List dense sx={{ border: 1, borderColor: 'divider', borderRadius: 1, py: 0 }}>
        {clips.map((c, i) => (
          <ListItemButton key={c.id} selected={i === index} onClick={() => setIndex(i)}>
            <ListItemText primary={c.title || c.id} secondary={c.prompt.slice(0, 60)} slotProps={{ secondary: { noWrap: true } }} />
          </ListItemButton>
        ))}
      </List>
      <Box key={clip.id}>
        <Section title={t('music')} open>
          {clip.audioUrl ? <Box component="audio" controls src={clip.audioUrl} sx={{ width: '100%' }} /> : <Typography color="text.secondary">{t('noData')}</Typography>}
        </Section>
        <Section title={t('video')}>
          {clip.videoUrl ? <Box component="video" controls src={clip.videoUrl} poster={clip.imageUrl || undefined} sx={{ width: '100%', maxHeight: 360 }} /> : <Typography color="text.secondary">{t('noData')}</Typography>}
        </Section>
        <Section title={t('lyrics')}>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{clip.prompt || t('noData')}</Typography>
        </Section>
        <Section title={t('raw')}>
          <JsonBlock value={clip.raw} />
        </Section>
      </Box>
    </Box>
  );
}

function VideoView({ urls, data }: { urls: string[]; data: unknown }) {
  const { t } = useTranslation('task');
  return (
    <Box data-testid="video-view" sx={{ display: 'grid', gap: 2 }}>
      {urls.map((url) => (
        <Box key={url} component="video" controls src={url} sx={{ width: '100%', maxHeight: 420, bgcolor: 'black', borderRadius: 1 }} />
      ))}
      <Section title={t('raw')}>
        <JsonBlock value={data} />
      </Section>
    </Box>
  );
}

/** A task's result (console-screens §3.16): Suno music as clips with players, videos with a player, anything else as JSON. */
export default function TaskDetail({ task, onClose }: { task: AsyncTask | null; onClose: () => void }) {
  const { t } = useTranslation('task');
  const clips = task && task.platform === 'suno' && task.action === 'MUSIC' ? sunoClips(task.data) : [];
  const videos = task ? taskVideos(task) : [];
  return (
    <Dialog open={task !== null} onClose={onClose} maxWidth="md" fullWidth data-testid="task-detail">
      <DialogTitle>{task ? t('detailTitle', { id: task.task_id || task.id }) : ''}</DialogTitle>
      <DialogContent dividers>
        {task && task.fail_reason && <Typography color="error" sx={{ mb: 1 }}>{task.fail_reason}</Typography>}
        {task && !hasDetail(task.data) ? (
          <Typography color="text.secondary">{t('noData')}</Typography>
        ) : clips.length > 0 ? (
          <SunoView clips={clips} />
        ) : videos.length > 0 ? (
          <VideoView urls={videos} data={task!.data} />
        ) : (
          task && <JsonBlock value={task.data} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
