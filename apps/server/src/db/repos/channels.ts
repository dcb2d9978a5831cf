import type { Selectable } from 'kysely';
import type { ChannelsTable } from '../schema.js';

export type ChannelRow = Selectable<ChannelsTable>;
