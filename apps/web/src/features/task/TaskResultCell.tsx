import { Box, ButtonBase } from '@mui/material';
import MusicNote from '@mui/icons-material/MusicNote';
import Movie from '@mui/icons-material/Movie';
import { useTranslation } from 'react-i18next';
import type { AsyncTask } from '@one-hub/contract';
import { taskResult } from './task-data';

const SIZE = 40;

/** The list's result cell: a song's cover (or a note) or a film icon, opening the players of the detail dialog. */
export default function TaskResultCell({ task, onOpen }: { task: AsyncTask; onOpen: () => void }) {
  const { t } = useTranslation('task');
  const result = taskResult(task);
  if (result.kind === 'none') return <>-</>;
  const label = result.kind === 'audio' ? t('playAudio') : t('playVideo');
  return (
    <ButtonBase
      onClick={onOpen}
      aria-label={label}
      title={label}
      data-testid={`task-result-${task.id}`}
      sx={{ width: SIZE, height: SIZE, borderRadius: 1, overflow: 'hidden', bgcolor: 'action.selected', color: 'primary.main' }}
    >
      {result.kind === 'audio' && result.cover ? (
        <Box component="img" src={result.cover} alt="" loading="lazy" sx={{ width: SIZE, height: SIZE, objectFit: 'cover' }} />
      ) : result.kind === 'audio' ? (
        <MusicNote />
      ) : (
        <Movie />
      )}
    </ButtonBase>
  );
}
