import type { ApiContext, Route } from './routes';

function listUsers({ state }: ApiContext) {
	return { success: true, data: { users: state.users.map((u) => ({ ...u, user: { ...u.user } })) } };
}

export const userRoutes: Route[] = [{ method: 'GET', path: '/v2/user/list', handler: listUsers }];
