import { Type, type Static } from 'typebox'
import { StrictObject } from './common.js'

/** The identity every service sees on `request.user`, verified from the bearer token. */
export const AuthUser = StrictObject({
  uid: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  anonymous: Type.Boolean(),
})
export type AuthUser = Static<typeof AuthUser>

export const SessionTokenResponse = Type.Object({
  token: Type.String({ description: 'Send as `Authorization: Bearer <token>` on every call' }),
  expiresIn: Type.Integer({ description: 'Seconds until the token expires' }),
  user: AuthUser,
})
export type SessionTokenResponse = Static<typeof SessionTokenResponse>

export const RegisterBody = StrictObject({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 1024 }),
  fullName: Type.String({ maxLength: 200 }),
})
export type RegisterBody = Static<typeof RegisterBody>

export const LoginBody = StrictObject({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 1024 }),
})
export type LoginBody = Static<typeof LoginBody>

export const CreateAnonymousUserBody = StrictObject({
  preferences: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
})
export type CreateAnonymousUserBody = Static<typeof CreateAnonymousUserBody>

export const CreateAnonymousUserResponse = Type.Object({
  uid: Type.String(),
  customToken: Type.String({ description: 'Exchange at POST /api/users/token for a session token' }),
  expiresIn: Type.Integer({ description: 'Seconds the custom token can still be exchanged' }),
})
export type CreateAnonymousUserResponse = Static<typeof CreateAnonymousUserResponse>

export const TokenExchangeBody = StrictObject({
  customToken: Type.String({ minLength: 1, maxLength: 8192 }),
})
export type TokenExchangeBody = Static<typeof TokenExchangeBody>

export const UserProfile = Type.Object({
  uid: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  fullName: Type.Union([Type.String(), Type.Null()]),
  anonymous: Type.Boolean(),
  preferences: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Type.String({ format: 'date-time' }),
})
export type UserProfile = Static<typeof UserProfile>

// ---- spreadsheet sessions (spec 1 §3) ----

const CellValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])
const ColumnKey = Type.Union([Type.String({ maxLength: 8 }), Type.Integer()])

export const SessionCell = StrictObject({
  value: Type.Optional(CellValue),
  formula: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  sheetName: Type.Optional(Type.String()),
  row: Type.Optional(Type.Integer()),
  column: Type.Optional(ColumnKey),
  cellAddress: Type.Optional(Type.String()),
  style: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  format: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  type: Type.Optional(Type.String()),
})
export type SessionCell = Static<typeof SessionCell>

/** A grid row: its index plus one value per column letter (A, B, … AA). */
export const SessionRow = Type.Object(
  { rowIndex: Type.Integer({ minimum: 0 }) },
  { patternProperties: { '^[A-Z]{1,3}$': CellValue }, additionalProperties: false },
)
export type SessionRow = { rowIndex: number } & { [column: string]: string | number | boolean | null }

export const CellPosition = StrictObject({ col: ColumnKey, row: Type.Integer() })

export const SelectedCell = StrictObject({ col: ColumnKey, row: Type.Integer(), value: Type.Optional(CellValue) })

export const SelectedRange = StrictObject({
  startCol: ColumnKey,
  startRow: Type.Integer(),
  endCol: ColumnKey,
  endRow: Type.Integer(),
})

export const SheetState = StrictObject({
  selectedCell: Type.Optional(Type.Union([SelectedCell, Type.Null()])),
  selectedRange: Type.Optional(Type.Union([SelectedRange, Type.Null()])),
  isSelecting: Type.Optional(Type.Boolean()),
  rows: Type.Optional(Type.Array(SessionRow, { maxItems: 100_000 })),
  cells: Type.Optional(Type.Record(Type.String({ maxLength: 16 }), SessionCell)),
  showContextualHelp: Type.Optional(Type.Boolean()),
  contextualHelpData: Type.Optional(Type.Unknown()),
  showTour: Type.Optional(Type.Boolean()),
  /** A live grid handle in the browser; it cannot be stored, so the server keeps null. */
  gridApi: Type.Optional(Type.Null()),
  editingCell: Type.Optional(Type.Union([CellPosition, Type.Null()])),
  formulaBarValue: Type.Optional(Type.String()),
  activeView: Type.Optional(Type.String({ default: 'spreadsheet' })),
  /** Column widths in px keyed by zero-based column index, beyond spec 1 §3 so a resized column stays resized. */
  columnWidths: Type.Optional(Type.Record(Type.String({ pattern: '^[0-9]{1,5}$' }), Type.Number({ minimum: 0, maximum: 10_000 }))),
  /** Merged ranges such as 'A1:C1', beyond spec 1 §3. */
  merges: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Z]{1,3}[0-9]{1,7}:[A-Z]{1,3}[0-9]{1,7}$' }), { maxItems: 10_000 })),
})
export type SheetState = Static<typeof SheetState>

export const SheetEntry = StrictObject({
  state: SheetState,
  lastModified: Type.Union([Type.String(), Type.Number()]),
})
export type SheetEntry = Static<typeof SheetEntry>

export const WorkbookEntry = StrictObject({
  name: Type.Optional(Type.String()),
  activeSheet: Type.String(),
  recentlyOpened: Type.Array(Type.String()),
  sheetOrder: Type.Array(Type.String()),
  totalSheets: Type.Integer({ minimum: 0 }),
  sheets: Type.Record(Type.String(), SheetEntry),
})
export type WorkbookEntry = Static<typeof WorkbookEntry>

export const SessionRole = Type.Union([Type.Literal('editor'), Type.Literal('admin')])
export type SessionRole = Static<typeof SessionRole>

export const UserSession = StrictObject({
  id: Type.String({ description: 'The user id the session belongs to' }),
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  role: SessionRole,
  activeWorkbook: Type.String({ default: 'defaultWorkbook' }),
  workbooks: Type.Record(Type.String(), WorkbookEntry),
  updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
})
export type UserSession = Static<typeof UserSession>

export const LoadOrCreateSessionBody = StrictObject({
  uid: Type.Optional(Type.String()),
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})
export type LoadOrCreateSessionBody = Static<typeof LoadOrCreateSessionBody>

/** A session as the client sends it for saving; the user id may come as `session.id` or `userId`. */
export const SessionInput = StrictObject({
  id: Type.Optional(Type.String()),
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  role: Type.Optional(SessionRole),
  activeWorkbook: Type.Optional(Type.String()),
  workbooks: Type.Optional(Type.Record(Type.String(), WorkbookEntry)),
})
export type SessionInput = Static<typeof SessionInput>

export const SaveSessionBody = StrictObject({
  session: SessionInput,
  userId: Type.Optional(Type.String()),
})
export type SaveSessionBody = Static<typeof SaveSessionBody>

export const SaveSessionResponse = Type.Object({ success: Type.Boolean(), session: UserSession })
export type SaveSessionResponse = Static<typeof SaveSessionResponse>

export const GetSessionQuery = StrictObject({ userId: Type.Optional(Type.String()) })

export const SessionResponse = Type.Object({ success: Type.Boolean(), session: UserSession })
export type SessionResponse = Static<typeof SessionResponse>

// ---- background identity --------------------------------------------------------------------------

export const UserTokenBody = StrictObject({
  userId: Type.String({ minLength: 1, maxLength: 128 }),
})
export type UserTokenBody = Static<typeof UserTokenBody>

export const UserTokenResponse = Type.Object({
  token: Type.String({ description: "A bearer token for the user, for one job's calls" }),
  expiresIn: Type.Integer({ description: 'Seconds until the token expires' }),
})
export type UserTokenResponse = Static<typeof UserTokenResponse>
