import { ApiClient } from '../api/api-client'
import { AuthService } from '../auth/auth-service'

/** The app's single sign-in state and API client: every backend call carries the current token. */
export const authService = new AuthService()

export const api = new ApiClient({
  getToken: () => authService.getToken(),
  onUnauthorized: () => authService.expire(),
})
