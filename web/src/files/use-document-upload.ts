import { NO_FILE_MESSAGE } from '@finsheet/contracts'
import { useEffect, useRef, useState } from 'react'
import { api } from '../app/services'
import { errorText } from '../pages/error-text'
import { isAcceptedFile } from './file-types'
import { isSaveFileName } from '../workbook/save-file'
import { importDocument, importSaveFile, type ImportOutcome } from './import-client'

/** Spec 2 §4 and §9: the upload and import dialogs close 2,000 ms after a success. */
const CLOSE_AFTER_SUCCESS_MS = 2000

export type UploadPhase = 'idle' | 'running' | 'success' | 'error'

interface DocumentUploadOptions {
  /** Whether the dialog is open: closing it stops the upload and forgets the file. */
  open: boolean
  /** Shown when the chosen file is not one the import takes. */
  wrongTypeMessage: string
  /** Called CLOSE_AFTER_SUCCESS_MS after a success, with what the document became. */
  onFinished(outcome: ImportOutcome): void
  /** Files saved with Save (.json) are taken too, and become workbooks (the import dialog). */
  acceptSaveFiles?: boolean
}

interface StartOptions {
  /** The text the dialog shows once the document is processed. */
  describe(outcome: ImportOutcome): string
  onSuccess?(outcome: ImportOutcome): void
  onFailure?(reason: string): void
}

/**
 * What Upload File and Import Document share: the chosen file, the upload following the real job to
 * its end, and the messages for a wrong file, no file, success and failure.
 */
export function useDocumentUpload({ open, wrongTypeMessage, onFinished, acceptSaveFiles = false }: DocumentUploadOptions) {
  const [file, setFile] = useState<File | null>(null)
  const [phase, setPhase] = useState<UploadPhase>('idle')
  const [progress, setProgress] = useState(0)
  const [message, setMessage] = useState<string | null>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const abortRef = useRef<AbortController | null>(null)
  const outcomeRef = useRef<ImportOutcome | null>(null)

  const clear = () => {
    setFile(null)
    setPhase('idle')
    setProgress(0)
    setMessage(null)
  }

  useEffect(() => {
    if (open) return
    abortRef.current?.abort()
    clear()
  }, [open])

  useEffect(() => {
    if (phase !== 'success') return
    const timer = setTimeout(() => {
      const outcome = outcomeRef.current
      if (outcome) onFinished(outcome)
    }, CLOSE_AFTER_SUCCESS_MS)
    return () => clearTimeout(timer)
  }, [phase, onFinished])

  const choose = (chosen: File | undefined) => {
    if (!chosen) return
    setProgress(0)
    if (!isAcceptedFile(chosen.name, chosen.type) && !(acceptSaveFiles && isSaveFileName(chosen.name, chosen.type))) {
      setFile(null)
      setPhase('error')
      setMessage(wrongTypeMessage)
      return
    }
    setFile(chosen)
    setPhase('idle')
    setMessage(null)
  }

  const start = async ({ describe, onSuccess, onFailure }: StartOptions) => {
    if (!file) {
      setPhase('error')
      setMessage(NO_FILE_MESSAGE)
      return
    }
    const controller = new AbortController()
    abortRef.current = controller
    setPhase('running')
    setProgress(0)
    setMessage(null)
    try {
      const outcome =
        acceptSaveFiles && isSaveFileName(file.name, file.type)
          ? await importSaveFile(api, file, setProgress, controller.signal)
          : await importDocument(api, file, setProgress, controller.signal)
      outcomeRef.current = outcome
      setProgress(100)
      setPhase('success')
      setMessage(describe(outcome))
      onSuccess?.(outcome)
    } catch (error) {
      if (controller.signal.aborted) return
      const reason = errorText(error, 'Upload failed')
      setPhase('error')
      setMessage(reason)
      onFailure?.(reason)
    }
  }

  /** Forgets the file and opens the file chooser again. */
  const chooseAgain = () => {
    clear()
    inputRef.current?.click()
  }

  return { file, phase, progress, message, inputRef, choose, start, chooseAgain, acceptSaveFiles }
}

export type DocumentUpload = ReturnType<typeof useDocumentUpload>
