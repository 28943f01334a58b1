// Operators: the people who run OpenVibe itself (the admin command line, /admin).
export { isOperator, requireOperator, setOperator } from "./operators";
export { operatorPrincipal } from "./principal";
