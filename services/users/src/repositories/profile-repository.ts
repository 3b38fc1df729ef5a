import type { DocumentStore } from '@finsheet/platform'
import type { UserProfile } from '@finsheet/contracts'

type ProfileDocument = UserProfile & { id: string }

/** Profiles: full name and preferences, kept by uid in both identity modes. */
export function createProfileRepository(store: DocumentStore) {
  const profiles = () => store.collection<ProfileDocument>('profiles')
  return {
    async get(uid: string): Promise<UserProfile | null> {
      const doc = await profiles().get(uid)
      if (!doc) return null
      const { id: _id, ...profile } = doc
      return profile
    },
    async put(profile: UserProfile): Promise<void> {
      await profiles().put({ id: profile.uid, ...profile })
    },
  }
}
export type ProfileRepository = ReturnType<typeof createProfileRepository>
