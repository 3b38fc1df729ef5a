export { loadConfig, ConfigError, exitOnConfigError, platformEnvProperties, PlatformEnv, trustProxySetting, usersUrlProperty } from './config/config.js'
export type { PlatformConfig, TrustProxy } from './config/config.js'
export { AppError, isAppError, platformErrors } from './errors/app-error.js'
export { handleError, toAppError, errorBody } from './errors/error-handler.js'
export { DependencyUnavailableError, DEPENDENCY_RETRY_AFTER_SECONDS, isNetworkFailure } from './errors/dependency-unavailable.js'
export type { OutsideStore } from './errors/dependency-unavailable.js'
export { createBaseApp, createServiceApp, errorResponses } from './kit/create-service-app.js'
export type { BaseAppOptions, ServiceApp, ServiceAppOptions, StatusProbe } from './kit/create-service-app.js'
export { closeOnSignals } from './kit/lifecycle.js'
export { createLogger, loggerOptions } from './kit/logger.js'
export type { Logger } from './kit/logger.js'
export { authPlugin, currentUser } from './auth/auth-plugin.js'
export { authErrors, bearerTokenFrom } from './auth/token-verifier.js'
export type { AuthUser, TokenVerifier } from './auth/token-verifier.js'
export { ensureSigningKeys, readPublicJwks, signingKeysFromJwk } from './auth/local-keys.js'
export type { SigningKeys } from './auth/local-keys.js'
export { LocalTokenIssuer, LocalTokenVerifier } from './auth/local-tokens.js'
export type { LocalTokenOptions } from './auth/local-tokens.js'
export { FirebaseTokenVerifier, firebaseAuth, authUserFromFirebase } from './auth/firebase.js'
export type { FirebaseOptions } from './auth/firebase.js'
export { createTokenVerifier } from './auth/create-verifier.js'
export { loadServiceSecret, signServiceToken, verifyServiceToken, serviceAuthErrors, serviceSecretFile, MIN_SERVICE_SECRET_LENGTH } from './auth/service-credentials.js'
export type { ServiceSecretConfig } from './auth/service-credentials.js'
export { HttpUserTokenSource, createUserTokenSource, UnknownUserError, UserTokenUnavailableError, USER_TOKEN_AUDIENCE } from './auth/user-token-source.js'
export type { UserTokenSource, HttpUserTokenSourceOptions } from './auth/user-token-source.js'
export { VerifiedTokenCache } from './auth/verified-token-cache.js'
export type { VerifiedTokenCacheOptions } from './auth/verified-token-cache.js'
export { DuplicateKeyError, InvalidQueryError } from './documents/port.js'
export type {
  CollectionOptions,
  DeferredDocument,
  Document,
  DocumentCollection,
  DocumentStore,
  DocumentTransaction,
  FieldCondition,
  FieldOperators,
  FieldValue,
  Filter,
  FindOptions,
  IndexSpec,
  SortDirection,
} from './documents/port.js'
export { createSqliteDocumentStore, SqliteDocumentStore } from './documents/sqlite-document-store.js'
export { BlobNotFoundError, InvalidBlobKeyError, assertBlobKey, userFileKey, DEFAULT_DOWNLOAD_URL_SECONDS } from './blobs/port.js'
export type { BlobBody, BlobInfo, BlobListing, BlobStore, DownloadUrlOptions } from './blobs/port.js'
export { FsBlobStore } from './blobs/fs-blob-store.js'
export type { FsBlobStoreOptions } from './blobs/fs-blob-store.js'
export { VectorStoreError } from './vectors/port.js'
export type { CollectionOptions as VectorCollectionOptions, PayloadValue, VectorFilter, VectorMatch, VectorPayload, VectorPoint, VectorSearchOptions, VectorStore } from './vectors/port.js'
export { SqliteVectorStore } from './vectors/sqlite-vector-store.js'
export { JobQueueError, UnrecoverableJobError, DEFAULT_ATTEMPTS, DEFAULT_BACKOFF } from './jobs/port.js'
export type { ActiveJob, AddJobOptions, BackoffOptions, JobProcessor, JobQueue, JobQueues, JobSnapshot, JobState, JobWorker, WorkerOptions } from './jobs/port.js'
export { SqliteJobQueues } from './jobs/sqlite-job-queue.js'
export type { SqliteJobQueueOptions } from './jobs/sqlite-job-queue.js'
export type { BullmqJobQueueOptions } from './jobs/bullmq-job-queue.js'
export { createDocumentStore, createBlobStore, createVectorStore, createJobQueues, probe, dataDir } from './adapters.js'
