//! AdamW: Adam with decoupled weight decay.

pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    /// Steps taken (for bias correction).
    pub t: u64,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;
/// Decoupled weight decay per unit of learning rate.
const DECAY: f32 = 0.01;

impl AdamW {
    pub fn new(len: usize) -> Self {
        Self {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// One step along the mean gradient `grad` with learning rate `lr`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - BETA2.powi(self.t.min(i32::MAX as u64) as i32);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= lr * (DECAY * *p + (*m / c1) / ((*v / c2).sqrt() + EPSILON));
        }
    }
}
