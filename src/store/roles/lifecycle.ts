/** The lifecycle role: where the store is and how it ends (the opener and the front ends that print it hold it). */
export interface StoreLifecycle {
  /** Where the store is, safe to print (a password is masked). */
  readonly location: string;
  /** Closes the connection(s). */
  close(): Promise<void>;
}
