/** Session tasks of a kernel thread (filled in by the session document module). */
export const sessionTasks = {};
