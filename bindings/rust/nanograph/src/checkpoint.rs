//! Checkpoints: a transformer's persistent values saved to a file and loaded again.
use crate::exec::Transformer;
use crate::{check, cstring, sys, Result};

impl Transformer {
    /// Writes the persistent values (variables, optimizer state, other persistent tensors, each
    /// found by its op's name) and the random generator's state to a checkpoint file. An existing
    /// file is replaced atomically: a failure leaves it as it was. Runs of the transformer's
    /// computations wait while the values are copied.
    pub fn save(&self, path: &str) -> Result<()> {
        let p = cstring(path)?;
        check(unsafe { sys::ng_transformer_save(self.h, p.as_ptr()) })
    }

    /// Replaces the persistent values and the random generator's state with those of a checkpoint
    /// written by [`save`](Transformer::save): build the same graph (same op names) and create the
    /// same computations first, so that the transformer knows every tensor. All or nothing: on
    /// any error every value is as it was.
    pub fn load(&mut self, path: &str) -> Result<()> {
        let p = cstring(path)?;
        check(unsafe { sys::ng_transformer_load(self.h, p.as_ptr()) })
    }
}
