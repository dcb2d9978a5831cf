import type { User } from '@one-hub/contract';
import type { AppDispatch } from '../../store';
import { loadUserGroupMap, storeUser } from '../../store/session';

/** After any successful sign-in: store the user and load the group map. */
export function completeLogin(dispatch: AppDispatch, user: User) {
  dispatch(storeUser(user));
  void dispatch(loadUserGroupMap());
}
