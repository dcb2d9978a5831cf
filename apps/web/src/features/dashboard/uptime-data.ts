/** Uptime Kuma status-page answers (passed through by the gateway) shaped for the dashboard's Status tab. */

export interface KumaPage {
  publicGroupList?: Array<{ name?: string; monitorList?: Array<{ id: number; name: string }> }>;
}
export interface KumaHeartbeats {
  heartbeatList?: Record<string, Array<{ status: number; time: string; msg?: string; ping?: number | null }>>;
  uptimeList?: Record<string, number>;
}

export interface MonitorView {
  id: number;
  name: string;
  group: string;
  /** 1 up, 0 down, 2 pending, 3 maintenance; null before the first beat. */
  status: number | null;
  ping: number | null;
  time: string;
  /** Availability over 24 h in percent, null when unknown. */
  uptime: number | null;
  /** The latest beats, oldest first. */
  history: number[];
}

const HISTORY = 40;

export function monitorsOf(page: KumaPage, beats: KumaHeartbeats): MonitorView[] {
  return (page.publicGroupList ?? []).flatMap((g) =>
    (g.monitorList ?? []).map((m) => {
      const list = beats.heartbeatList?.[String(m.id)] ?? [];
      const last = list.at(-1);
      const uptime = beats.uptimeList?.[`${m.id}_24`];
      return {
        id: m.id,
        name: m.name,
        group: g.name ?? '',
        status: last ? last.status : null,
        ping: last?.ping ?? null,
        time: last?.time ?? '',
        uptime: typeof uptime === 'number' ? Math.round(uptime * 10000) / 100 : null,
        history: list.slice(-HISTORY).map((b) => b.status),
      };
    }),
  );
}

/** Availability colour: ≥ 90 % green, > 70 % amber, else red. */
export function uptimeTone(percent: number): 'success' | 'warning' | 'error' {
  if (percent >= 90) return 'success';
  if (percent > 70) return 'warning';
  return 'error';
}
