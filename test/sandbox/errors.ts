/** The API's default error text (spec: Errors). */
export const DEFAULT_ERROR_MESSAGE = 'Erro ao enviar mensagem';

/** Thrown by handlers and validators; the server turns it into `{success:false, message}` with `status`. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
		this.name = 'ApiError';
	}
}

export const badRequest = (message: string): ApiError => new ApiError(400, message);
export const notFound = (message: string): ApiError => new ApiError(404, message);
export const conflict = (message: string): ApiError => new ApiError(409, message);
