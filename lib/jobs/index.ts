// BullMQ jobs: their definitions, shared by producers and the worker host, and the typed add.
export { JOBS, QUEUES, type JobContract, type JobName, type QueueName } from "./definitions";
export { addJob } from "./enqueue";
