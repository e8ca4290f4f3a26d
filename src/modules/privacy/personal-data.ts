/** The account being erased, as its modules need it. */
export interface ErasedAccount {
  id: string;
  email: string;
}

/** A module's side of erasure (Data Privacy Act, right to erasure): what it keeps of an account. */
export interface PersonalDataEraser {
  erase(account: ErasedAccount): Promise<void>;
}

/** A module's side of subject access and erasure: its part of an account's data. */
export interface PersonalData<Part> extends PersonalDataEraser {
  exportOf(userId: string): Promise<Part>;
}
