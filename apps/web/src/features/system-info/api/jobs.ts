import type { JobName, JobsInfo } from '@one-hub/contract';
import { api } from '../../../lib/api';

export const getJobs = () => api<JobsInfo>('/api/system_info/jobs');
export const runJob = (name: JobName) => api<null>(`/api/system_info/jobs/${name}/run`, { method: 'POST', json: {} });
export const switchJob = (name: JobName, enabled: boolean) => api<null>(`/api/system_info/jobs/${name}`, { method: 'PUT', json: { enabled } });
