import { familyAdapter } from './family.js';
import { FAMILY_PROFILES } from './profiles.js';

/** One adapter per OpenAI-dialect provider profile. */
export const FAMILY_ADAPTERS = FAMILY_PROFILES.map(familyAdapter);
export { familyAdapter, type FamilyProfile } from './family.js';
